import { Component, type ReactNode } from 'react';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';

interface QueryErrorBoundaryProps {
  /** Called before trying again, e.g. to reset the failed queries. */
  onRetry: () => void;
  children: ReactNode;
}

/** Keeps a failed request from taking the page down: the header stays, the API's message shows in place. */
export class QueryErrorBoundary extends Component<QueryErrorBoundaryProps, { error: unknown }> {
  override state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="space-y-3">
        <FormError error={this.state.error} />
        <Button
          variant="secondary"
          onClick={() => {
            this.props.onRetry();
            this.setState({ error: null });
          }}
        >
          Try again
        </Button>
      </div>
    );
  }
}
