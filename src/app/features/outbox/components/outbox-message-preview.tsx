import type { Ref } from 'react';
import type { OutboxMessageSummary } from '../../../../contract/mail';
import { FormError } from '../../../components/form-error';
import { useOutboxMessage } from '../api/get-outbox-message';

/** The chosen message, raw, as it would have gone out; a hint while none is chosen. */
export function OutboxMessagePreview({ message, ref }: { message: OutboxMessageSummary | null; ref?: Ref<HTMLElement> }) {
  return (
    <section
      ref={ref}
      aria-labelledby="outbox-preview-heading"
      className="scroll-mt-4 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 id="outbox-preview-heading" className="text-lg font-semibold">
        Raw message
      </h2>
      {message ? (
        <RawMessage id={message.id} />
      ) : (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">Choose a message to see it exactly as it would have been sent.</p>
      )}
    </section>
  );
}

function RawMessage({ id }: { id: string }) {
  const { data: raw, error, isPending } = useOutboxMessage(id);
  if (error) return <FormError error={error} className="mt-3" />;
  if (isPending) {
    return (
      <p role="status" className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        Loading message…
      </p>
    );
  }
  // The message is untrusted: it is only ever React text inside <pre>, never HTML.
  return (
    <pre
      tabIndex={0}
      aria-label="Message source"
      className="mt-3 max-h-[70vh] overflow-auto rounded-md bg-zinc-50 p-3 font-mono text-xs leading-5 wrap-anywhere whitespace-pre-wrap text-zinc-800 ring-1 ring-zinc-200 ring-inset dark:bg-zinc-950 dark:text-zinc-200 dark:ring-zinc-800"
    >
      {raw}
    </pre>
  );
}
