import { Link } from '@tanstack/react-router';
import { isApiRequestError } from '../lib/api-error';
import { useIntl } from '../lib/intl';

/**
 * The server's (or the network's) explanation of a failed request, announced when it appears.
 * `docsLink` adds a link to the code's entry on the errors page, for developer-facing forms.
 */
export function FormError({ error, className = '', docsLink = false }: { error: unknown; className?: string; docsLink?: boolean }) {
  const intl = useIntl();
  if (!error) return null;
  const message = error instanceof Error ? error.message : intl.formatMessage({ id: 'status.somethingWrong', defaultMessage: 'Something went wrong. Try again.' });
  const code = docsLink && isApiRequestError(error) && error.docs ? error.code : undefined;
  return (
    <div
      role="alert"
      className={`rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/60 dark:text-red-200 ${className}`}
    >
      <p>{message}</p>
      {isApiRequestError(error) && error.retryAfterSeconds !== undefined ? (
        <p className="mt-1">
          {error.retryAfterSeconds < 90
            ? intl.formatMessage(
                { id: 'error.retryInSeconds', defaultMessage: 'Try again in {seconds, plural, one {# second} other {# seconds}}.' },
                { seconds: Math.max(1, Math.ceil(error.retryAfterSeconds)) },
              )
            : intl.formatMessage(
                { id: 'error.retryInMinutes', defaultMessage: 'Try again in {minutes, plural, one {# minute} other {# minutes}}.' },
                { minutes: Math.ceil(error.retryAfterSeconds / 60) },
              )}
        </p>
      ) : null}
      {code ? (
        <p className="mt-1">
          <Link to="/docs/errors" hash={code} className="underline underline-offset-2">
            {intl.formatMessage({ id: 'error.aboutCode', defaultMessage: 'About {code}' }, { code: <code key="code">{code}</code> })}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
