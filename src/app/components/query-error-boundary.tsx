import { Component, type ReactNode } from 'react';
import { useIntl } from '../lib/intl';
import { Button } from './button';
import { FormError } from './form-error';

/** The retry button's words (the boundary is a class, which has no hooks). */
function TryAgainLabel() {
  const intl = useIntl();
  return intl.formatMessage({ id: 'common.queryErrorBoundary.tryAgain', defaultMessage: 'Try again' });
}

interface QueryErrorBoundaryProps {
  /** Called before trying again, e.g. to reset the failed queries. */
  onRetry: () => void;
  /** A change (new filters, say) clears the error, so the new content gets its chance. */
  resetKey?: string;
  children: ReactNode;
}

interface QueryErrorBoundaryState {
  error: unknown;
  resetKey: string | undefined;
}

/**
 * Keeps a failed request from taking the whole page down: the header and controls stay, and the
 * API's message shows in place with "Try again".
 */
export class QueryErrorBoundary extends Component<QueryErrorBoundaryProps, QueryErrorBoundaryState> {
  override state: QueryErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: QueryErrorBoundaryProps, state: QueryErrorBoundaryState) {
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
          <TryAgainLabel />
        </Button>
      </div>
    );
  }
}
