import { createFileRoute } from '@tanstack/react-router';
import { EmptyState } from '../../components/empty-state';
import { FormError } from '../../components/form-error';
import { PageHeader } from '../../components/page-header';
import { outboxQueryOptions, useOutbox } from '../../features/outbox/api/get-outbox';
import { OutboxBrowser } from '../../features/outbox/components/outbox-browser';
import { useIntl } from '../../lib/intl';

export const Route = createFileRoute('/_authed/outbox')({
  loader: ({ context }) => context.queryClient.ensureQueryData(outboxQueryOptions()),
  component: OutboxPage,
});

function OutboxPage() {
  const intl = useIntl();
  const { data, error } = useOutbox();
  return (
    <>
      <PageHeader
        title={intl.formatMessage({ id: 'pages.outbox.title', defaultMessage: 'Outbox' })}
        description={intl.formatMessage({
          id: 'pages.outbox.description',
          defaultMessage: 'Without an SMTP server, Parcel writes outgoing mail to files instead of sending it, so you can see here what would have been sent.',
        })}
      />
      {/* A failed refresh keeps the last list and says why. */}
      <FormError error={error} className="mb-6" />
      {data.transport === 'smtp' ? (
        <EmptyState title={intl.formatMessage({ id: 'pages.outbox.smtpTitle', defaultMessage: 'Mail is being sent' })}>
          {intl.formatMessage({
            id: 'pages.outbox.smtpHelp',
            defaultMessage: 'Outgoing mail goes through the configured SMTP server and is not kept, so there is nothing to show here.',
          })}
        </EmptyState>
      ) : (
        <OutboxBrowser messages={data.messages} />
      )}
    </>
  );
}
