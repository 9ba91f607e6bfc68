import { nameInSentence } from '../../../components/glyphs';
import type { PublicUploadRequest } from '../../../../contract/public-requests';
import { useIntl } from '../../../lib/intl';
import { DateTimeText, RelativeTimeText } from '../../../lib/server-render';
import { allowedTypesInWords, limitsInWords } from '../utils/request-rules';

const term = 'text-zinc-600 dark:text-zinc-400';
const value = 'font-medium text-zinc-900 dark:text-zinc-100';
const SPACE = ' ';

/**
 * What the request asks for: who asks, its title and message (the owner's text, shown as text with
 * its line breaks), the deadline and the limits of each delivery.
 */
export function RequestSummary({ request }: { request: PublicUploadRequest }) {
  const intl = useIntl();
  const types = allowedTypesInWords(request.allowedTypes, intl);
  return (
    <section aria-labelledby="request-title" className="rounded-xl border border-zinc-200 bg-white p-5 shadow-xs sm:p-8 dark:border-zinc-800 dark:bg-zinc-900">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {intl.formatMessage(
          { id: 'upload.summary.asks', defaultMessage: '{workspace} asks you for files' },
          { workspace: nameInSentence('workspace', request.workspaceName) },
        )}
      </p>
      <h1 id="request-title" className="mt-2 text-2xl font-semibold tracking-tight break-words text-zinc-900 sm:text-3xl dark:text-zinc-50">
        {request.title}
      </h1>
      {request.message ? <p className="mt-4 whitespace-pre-line break-words text-zinc-800 dark:text-zinc-200">{request.message}</p> : null}
      <dl className="mt-6 grid grid-cols-1 gap-3 text-sm sm:grid-cols-2">
        {request.deadline ? (
          <div>
            <dt className={term}>{intl.formatMessage({ id: 'upload.summary.deadline', defaultMessage: 'Deadline' })}</dt>
            <dd className={value}>
              <time dateTime={request.deadline}>
                <DateTimeText iso={request.deadline} />
              </time>
              {SPACE}
              <span className="font-normal text-zinc-600 dark:text-zinc-400">
                {intl.formatMessage({ id: 'upload.summary.deadlineIn', defaultMessage: '({when})' }, { when: <RelativeTimeText key="when" iso={request.deadline} /> })}
              </span>
            </dd>
          </div>
        ) : null}
        <div>
          <dt className={term}>{intl.formatMessage({ id: 'upload.summary.fileTypes', defaultMessage: 'File types' })}</dt>
          <dd className={`${value} first-letter:uppercase`}>{types ?? intl.formatMessage({ id: 'upload.summary.anyType', defaultMessage: 'Any kind of file' })}</dd>
        </div>
        <div>
          <dt className={term}>{intl.formatMessage({ id: 'upload.summary.eachTime', defaultMessage: 'Each time you send' })}</dt>
          <dd className={value}>{limitsInWords(request, intl)}</dd>
        </div>
      </dl>
    </section>
  );
}
