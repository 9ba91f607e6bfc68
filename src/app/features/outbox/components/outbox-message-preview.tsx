import { useState, type Ref } from 'react';
import { defineMessages } from 'react-intl';
import type { OutboxMessageSummary } from '../../../../contract/mail';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { useIntl } from '../../../lib/intl';
import { useOutboxMessage } from '../api/get-outbox-message';
import { readMessage } from '../utils/read-message';

const preClass =
  'mt-3 max-h-[70vh] overflow-auto rounded-md bg-zinc-50 p-3 font-mono text-xs leading-5 wrap-anywhere whitespace-pre-wrap text-zinc-800 ring-1 ring-zinc-200 ring-inset dark:bg-zinc-950 dark:text-zinc-200 dark:ring-zinc-800';

/** The header fields shown above the text: their names in the message (matched without case) and in the page's language. */
const shownHeaders = defineMessages({
  From: { id: 'outbox.preview.header.from', defaultMessage: 'From' },
  To: { id: 'outbox.preview.header.to', defaultMessage: 'To' },
  Subject: { id: 'outbox.preview.header.subject', defaultMessage: 'Subject' },
  Date: { id: 'outbox.preview.header.date', defaultMessage: 'Date' },
});

/** The chosen message, decoded for reading, with its raw source one click away; a hint while none is chosen. */
export function OutboxMessagePreview({ message, ref }: { message: OutboxMessageSummary | null; ref?: Ref<HTMLElement> }) {
  const intl = useIntl();
  const [showRaw, setShowRaw] = useState(false);
  return (
    <section
      ref={ref}
      aria-labelledby="outbox-preview-heading"
      className="scroll-mt-4 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="outbox-preview-heading" className="text-lg font-semibold">
          {intl.formatMessage({ id: 'outbox.preview.heading', defaultMessage: 'Message' })}
        </h2>
        {message ? (
          <Button variant="secondary" onClick={() => setShowRaw((raw) => !raw)}>
            {showRaw
              ? intl.formatMessage({ id: 'outbox.preview.showDecoded', defaultMessage: 'Show decoded message' })
              : intl.formatMessage({ id: 'outbox.preview.showRaw', defaultMessage: 'Show raw source' })}
          </Button>
        ) : null}
      </div>
      {message ? (
        <KeptMessage id={message.id} raw={showRaw} />
      ) : (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({ id: 'outbox.preview.choose', defaultMessage: 'Choose a message to see it as it would have been sent.' })}
        </p>
      )}
    </section>
  );
}

function KeptMessage({ id, raw: showRaw }: { id: string; raw: boolean }) {
  const intl = useIntl();
  const { data: raw, error, isPending } = useOutboxMessage(id);
  if (error) return <FormError error={error} className="mt-3" />;
  if (isPending) {
    return (
      <p role="status" className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage({ id: 'outbox.preview.loading', defaultMessage: 'Loading message…' })}
      </p>
    );
  }
  // The message is untrusted: it is only ever React text inside <pre> or <dd>, never HTML.
  if (showRaw) {
    return (
      <pre tabIndex={0} aria-label={intl.formatMessage({ id: 'outbox.preview.sourceLabel', defaultMessage: 'Message source' })} className={preClass}>
        {raw}
      </pre>
    );
  }
  const { headers, text, html } = readMessage(raw);
  return (
    <>
      <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        {(Object.keys(shownHeaders) as (keyof typeof shownHeaders)[]).flatMap((name) => {
          const header = headers.find((h) => h.name.toLowerCase() === name.toLowerCase());
          return header
            ? [
                <dt key={`${name}-t`} className="text-zinc-600 dark:text-zinc-400">
                  {intl.formatMessage(shownHeaders[name])}
                </dt>,
                <dd key={`${name}-d`} className="break-words">
                  {header.value}
                </dd>,
              ]
            : [];
        })}
      </dl>
      <pre tabIndex={0} aria-label={intl.formatMessage({ id: 'outbox.preview.textLabel', defaultMessage: 'Message text' })} className={preClass}>
        {text ?? intl.formatMessage({ id: 'outbox.preview.noText', defaultMessage: 'This message has no plain-text part.' })}
      </pre>
      {html !== null ? (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer text-zinc-700 dark:text-zinc-300">
            {intl.formatMessage({ id: 'outbox.preview.htmlSummary', defaultMessage: 'HTML part, as source' })}
          </summary>
          <pre tabIndex={0} aria-label={intl.formatMessage({ id: 'outbox.preview.htmlLabel', defaultMessage: 'HTML part' })} className={preClass}>
            {html}
          </pre>
        </details>
      ) : null}
    </>
  );
}
