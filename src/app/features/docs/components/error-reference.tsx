import { Link, useLocation } from '@tanstack/react-router';
import { errorCodes, errorExplanations, errorStatus } from '../../../../contract/error-codes';
import { InlineText } from '../../../components/markdown';
import { reasonPhrase } from '../../../lib/http-status';
import { useIntl } from '../../../lib/intl';

const exampleBody = `{
  "error": {
    "code": "invalid_request",
    "message": "limit must be an integer from 1 to 500",
    "details": { "fields": [{ "path": "limit", "message": "limit must be an integer from 1 to 500" }] },
    "docs": "https://parcel.example/docs/errors#invalid_request"
  }
}`;

/** The error body's field names, as the API writes them (code, not words). */
const ERROR_FIELDS = { code: 'code', message: 'message', docs: 'docs' } as const;

/** Every error code with its status and meaning; each section's id is the code, for `docs` links. */
export function ErrorReference() {
  // `:target` does not match sections rendered after the page loaded, so the linked one is marked here.
  const intl = useIntl();
  const linked = useLocation({ select: (location) => location.hash });
  return (
    <div className="max-w-3xl">
      <h1 className="text-3xl font-semibold tracking-tight">{intl.formatMessage({ id: 'docs.errors.title', defaultMessage: 'Errors' })}</h1>
      <div className="mt-4 space-y-3 text-sm leading-6 text-zinc-700 dark:text-zinc-300">
        <p>
          {intl.formatMessage(
            {
              id: 'docs.errors.intro',
              defaultMessage:
                'Every failed request answers with a 4xx or 5xx status and the same JSON body. The {code} is stable: branch on it, and fall back to the status for codes your client does not know. The {message} is for people and may change. {docs} links to the entry on this page.',
            },
            {
              code: <code key="code">{ERROR_FIELDS.code}</code>,
              message: <code key="message">{ERROR_FIELDS.message}</code>,
              docs: <code key="docs">{ERROR_FIELDS.docs}</code>,
            },
          )}
        </p>
        <pre className="overflow-x-auto rounded-md bg-zinc-900 p-4 text-xs leading-5 text-zinc-100 dark:bg-zinc-900 dark:ring-1 dark:ring-zinc-800">
          <code>{exampleBody}</code>
        </pre>
        <p>
          {intl.formatMessage(
            { id: 'docs.errors.seeAlso', defaultMessage: 'See also the <link>API reference</link>.' },
            {
              link: (chunks) => (
                <Link key="link" to="/docs/api" className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300">
                  {chunks}
                </Link>
              ),
            },
          )}
        </p>
      </div>

      <nav aria-label={intl.formatMessage({ id: 'docs.errors.codesLabel', defaultMessage: 'Error codes' })} className="mt-8">
        <h2 className="text-sm font-semibold">{intl.formatMessage({ id: 'docs.errors.codes', defaultMessage: 'Codes' })}</h2>
        <ul className="mt-2 flex flex-wrap gap-2">
          {errorCodes.map((code) => (
            <li key={code}>
              <Link
                to="/docs/errors"
                hash={code}
                className="inline-block rounded-md border border-zinc-200 px-2 py-1 font-mono text-xs hover:bg-zinc-100 dark:border-zinc-800 dark:hover:bg-zinc-800"
              >
                {code}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <div className="mt-10 space-y-4">
        {errorCodes.map((code) => (
          <section
            key={code}
            id={code}
            aria-labelledby={`${code}-title`}
            data-linked={code === linked ? '' : undefined}
            className="scroll-mt-20 rounded-lg border border-zinc-200 bg-white p-5 data-linked:border-indigo-400 data-linked:ring-2 data-linked:ring-indigo-400/40 dark:border-zinc-800 dark:bg-zinc-900 dark:data-linked:border-indigo-500"
          >
            <h2 id={`${code}-title`} className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
              <code className="text-lg font-semibold">{code}</code>
              <span className="text-sm font-medium text-zinc-600 dark:text-zinc-400">
                {intl.formatMessage(
                  { id: 'docs.errors.status', defaultMessage: 'HTTP {status} {reason}' },
                  { status: String(errorStatus[code]), reason: reasonPhrase(errorStatus[code]) },
                )}
              </span>
            </h2>
            <p className="mt-2 text-sm leading-6 text-zinc-700 dark:text-zinc-300">
              <InlineText text={errorExplanations[code]} />
            </p>
          </section>
        ))}
      </div>
    </div>
  );
}
