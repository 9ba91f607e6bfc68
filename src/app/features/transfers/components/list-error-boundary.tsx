import { Component, type ReactNode } from 'react';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';

interface ListErrorBoundaryProps {
  /** Called before trying again, e.g. to reset the failed query. */
  onRetry: () => void;
  /** A change (new filters) clears the error, so the new list gets its chance. */
  resetKey: string;
  children: ReactNode;
}

/**
 * Keeps a failed list from taking the whole page down: the header, filters and "New transfer"
 * stay, and the API's message shows where the list would be.
 */
export class ListErrorBoundary extends Component<ListErrorBoundaryProps, { error: unknown; resetKey: string }> {
  override state = { error: null as unknown, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: ListErrorBoundaryProps, state: { error: unknown; resetKey: string }) {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
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
