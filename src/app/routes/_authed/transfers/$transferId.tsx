import { OpenInItsWorkspace } from '../../../features/members/components/open-in-its-workspace';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { defineMessages } from 'react-intl';
import { PageHeader } from '../../../components/page-header';
import { resourceErrorComponent } from '../../../components/route-states';
import { Glyph } from '../../../components/glyphs';
import { meQueryOptions, useMe } from '../../../lib/me';
import { useIntl } from '../../../lib/intl';
import { useTransferLabel } from '../../../lib/transfer-labels';
import { transferQueryOptions, useTransfer } from '../../../features/transfers/api/get-transfer';
import { transferDownloadsQueryOptions, useTransferDownloads } from '../../../features/transfers/api/get-transfer-downloads';
import { DiscardDraft } from '../../../features/transfers/components/discard-draft';
import { DownloadReceipts } from '../../../features/transfers/components/download-receipts';
import { OwnDownloads } from '../../../features/transfers/components/own-downloads';
import { RevokeTransfer } from '../../../features/transfers/components/revoke-transfer';
import { SendDraft } from '../../../features/transfers/components/send-draft';
import { SentNotice } from '../../../features/transfers/components/sent-notice';
import { TransferFilesTable } from '../../../features/transfers/components/transfer-files-table';
import { TransferLimits } from '../../../features/transfers/components/transfer-limits';
import { TransferLabel } from '../../../features/transfers/components/transfer-label';
import { TransferLink } from '../../../features/transfers/components/transfer-link';
import { TransferNotifications } from '../../../features/transfers/components/transfer-notifications';
import { TransferOverview } from '../../../features/transfers/components/transfer-overview';
import { TransferRecipients } from '../../../features/transfers/components/transfer-recipients';
import { TransferStatusBadges } from '../../../features/transfers/components/transfer-status-badges';
import { filesAreGone, isLive, linkState, mayDownload, transferName } from '../../../features/transfers/utils/transfer-display';

/** After the back arrow, hidden from screen readers with it. */
const SPACE = ' ';

interface TransferSearch {
  /** Set when the dashboard has just sent this transfer: the page says so. */
  sent?: boolean;
}

/** Not in this workspace: perhaps in another of the person's, which the page offers to open. */
const missing = defineMessages({
  title: { id: 'pages.transfer.notFound.title', defaultMessage: 'Transfer not found' },
  description: {
    id: 'pages.transfer.notFound.description',
    defaultMessage: 'There is no such transfer in this workspace. It may have been a draft that was never sent, which is deleted after 24 hours.',
  },
  back: { id: 'pages.transfer.notFound.back', defaultMessage: 'All transfers' },
});

const notFound = resourceErrorComponent({
  title: missing.title,
  description: missing.description,
  back: { to: '/transfers', label: missing.back },
  elsewhere: <OpenInItsWorkspace param="transferId" />,
});

export const Route = createFileRoute('/_authed/transfers/$transferId')({
  validateSearch: (search: Record<string, unknown>): TransferSearch => ({ sent: search.sent === true || search.sent === 'true' || search.sent === 1 ? true : undefined }),
  loader: ({ context, params: { transferId } }) =>
    Promise.all([
      context.queryClient.ensureQueryData(transferQueryOptions(transferId)),
      context.queryClient.ensureQueryData(transferDownloadsQueryOptions(transferId)),
      context.queryClient.ensureQueryData(meQueryOptions()),
    ]),
  component: TransferPage,
  errorComponent: notFound,
});

function TransferPage() {
  const intl = useIntl();
  const { transferId } = Route.useParams();
  const { sent } = Route.useSearch();
  const navigate = Route.useNavigate();
  const { data: transfer } = useTransfer(transferId);
  const { data: downloads } = useTransferDownloads(transferId);
  const { data: me } = useMe();
  const [announcement, setAnnouncement] = useState('');
  const [label] = useTransferLabel(transferId);

  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/transfers" className="text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white">
          <span aria-hidden="true">
            <Glyph sign="previous" />
            {SPACE}
          </span>
          {intl.formatMessage({ id: 'pages.transfer.back', defaultMessage: 'Transfers' })}
        </Link>
      </p>
      <PageHeader title={transferName(transfer, transfer.files[0]?.name, label)} description={<TransferStatusBadges transfer={transfer} />} />
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {/* Sent while URL imports run, it goes out when they land: the notice says recipients are mailed then. */}
      {sent && (isLive(transfer) || linkState(transfer) === 'arriving') ? <SentNotice transfer={transfer} /> : null}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0 space-y-6">
          <TransferOverview transfer={transfer} />
          <TransferFilesTable files={transfer.files} sent={transfer.sendRequestedAt !== null} transferId={transfer.id} streamable={mayDownload(transfer, me)} />
          <TransferRecipients recipients={downloads.recipients} />
          <DownloadReceipts downloads={downloads.downloads} totalDownloads={downloads.totalDownloads} />
        </div>
        <div className="min-w-0 space-y-6">
          {isLive(transfer) ? <TransferLink url={transfer.url} e2ee={transfer.e2ee} /> : null}
          {transfer.e2ee ? <TransferLabel transferId={transfer.id} /> : null}
          {linkState(transfer) === 'limit_reached' ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              {intl.formatMessage({
                id: 'pages.transfer.limitReached',
                defaultMessage: 'The download limit is reached: recipients are told so and cannot download. Raise the limit to open the link again.',
              })}
            </p>
          ) : null}
          {filesAreGone(transfer) ? null : <OwnDownloads transferId={transfer.id} e2ee={transfer.e2ee} />}
          {linkState(transfer) === 'draft' ? (
            <SendDraft transfer={transfer} onSent={() => void navigate({ search: { sent: true }, replace: true })} />
          ) : null}
          <TransferLimits transfer={transfer} expiry={me.plan.limits.transferExpiry} />
          {transfer.status === 'active' ? <TransferNotifications transfer={transfer} /> : null}
          {linkState(transfer) === 'draft' ? (
            <DiscardDraft transferId={transfer.id} onDiscarded={() => void navigate({ to: '/transfers', replace: true })} />
          ) : transfer.status === 'active' ? (
            <RevokeTransfer transferId={transfer.id} onRevoked={() => setAnnouncement(intl.formatMessage({ id: 'pages.transfer.revoked', defaultMessage: 'Transfer revoked. Its link no longer works.' }))} />
          ) : null}
        </div>
      </div>
    </>
  );
}
