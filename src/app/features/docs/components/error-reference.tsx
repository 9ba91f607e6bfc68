import { Link, useLocation } from '@tanstack/react-router';
import { errorCodes, errorExplanations, errorStatus } from '../../../../contract/error-codes';
import { InlineText } from '../../../components/markdown';
import { reasonPhrase } from '../../../lib/http-status';

const exampleBody = `{
  "error": {
    "code": "invalid_request",
    "message": "limit must be an integer from 1 to 500",
    "details": { "fields": [{ "path": "limit", "message": "limit must be an integer from 1 to 500" }] },
    "docs": "https://parcel.example/docs/errors#invalid_request"
  }
}`;

/** Every error code with its status and meaning; each section's id is the code, for `docs` links. */
export function ErrorReference() {
  // `:target` does not match sections rendered after the page loaded, so the linked one is marked here.
  const linked = useLocation({ select: (location) => location.hash });
  return (
    <div className="max-w-3xl">
      <h1 className="text-3xl font-semibold tracking-tight">Errors</h1>
      <div className="mt-4 space-y-3 text-sm leading-6 text-zinc-700 dark:text-zinc-300">
        <p>
          Every failed request answers with a 4xx or 5xx status and the same JSON body. The <code>code</code> is stable: branch on
          it, and fall back to the status for codes your client does not know. The <code>message</code> is for people and may
          change. <code>docs</code> links to the entry on this page.
        </p>
        <pre className="overflow-x-auto rounded-md bg-zinc-900 p-4 text-xs leading-5 text-zinc-100 dark:bg-zinc-900 dark:ring-1 dark:ring-zinc-800">
          <code>{exampleBody}</code>
        </pre>
        <p>
          See also the <Link to="/docs/api" className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300">API reference</Link>.
        </p>
      </div>

      <nav aria-label="Error codes" className="mt-8">
        <h2 className="text-sm font-semibold">Codes</h2>
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
                HTTP {errorStatus[code]} {reasonPhrase(errorStatus[code])}
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
