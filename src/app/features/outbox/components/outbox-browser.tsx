import { useRef, useState } from 'react';
import type { OutboxMessageSummary } from '../../../../contract/mail';
import { EmptyState } from '../../../components/empty-state';
import { useIntl } from '../../../lib/intl';
import { OutboxMessageList } from './outbox-message-list';
import { OutboxMessagePreview } from './outbox-message-preview';

/** Below this width the preview sits under the list, out of sight: choosing a message scrolls to it. */
const sideBySide = '(min-width: 64rem)';

export function OutboxBrowser({ messages }: { messages: OutboxMessageSummary[] }) {
  const intl = useIntl();
  const [selected, setSelected] = useState<OutboxMessageSummary | null>(null);
  const previewRef = useRef<HTMLElement>(null);

  if (messages.length === 0) {
    return (
      <EmptyState title={intl.formatMessage({ id: 'outbox.empty.title', defaultMessage: 'No mail yet' })}>
        {intl.formatMessage({
          id: 'outbox.empty.body',
          defaultMessage: 'When Parcel emails someone for this workspace, for example the recipients of a transfer, the message appears here.',
        })}
      </EmptyState>
    );
  }

  function select(message: OutboxMessageSummary) {
    setSelected(message);
    if (typeof window.matchMedia === 'function' && !window.matchMedia(sideBySide).matches) {
      previewRef.current?.scrollIntoView?.({ block: 'start' });
    }
  }

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <OutboxMessageList messages={messages} selectedId={selected?.id ?? null} onSelect={select} />
      <div className="lg:sticky lg:top-4">
        <OutboxMessagePreview message={selected} ref={previewRef} />
      </div>
    </div>
  );
}
