import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { IntlShape } from 'react-intl';
import type { TransferSummary } from '../../../../contract/transfers';
import { formatBytes, formatDateTime, formatRelativeTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { ConfirmedAction } from '../../../components/confirmed-action';
import { CopyButton } from '../../../components/copy-button';
import { useTransferLabel } from '../../../lib/transfer-labels';
import { useDiscardTransfer } from '../api/discard-transfer';
import { useRevokeTransfer } from '../api/revoke-transfer';
import { describeDownloads, describeExpiry, linkState, transferName } from '../utils/transfer-display';
import { MadeBy } from './made-by';
import { TransferStatusBadges } from './transfer-status-badges';

function Fact({ term, children, className = '' }: { term: string; children: ReactNode; className?: string }) {
  return (
    <div className={`min-w-0 ${className}`}>
      <dt className="text-xs text-zinc-500 md:sr-only dark:text-zinc-400">{term}</dt>
      <dd className="truncate text-sm">{children}</dd>
    </div>
  );
}

function describeRecipients(recipients: string[], intl: IntlShape): string {
  if (recipients.length === 0) return intl.formatMessage({ id: 'transfers.row.linkOnly', defaultMessage: 'Link only' });
  const [first, ...rest] = recipients;
  return rest.length === 0
    ? first!
    : intl.formatMessage({ id: 'transfers.row.recipientAndOthers', defaultMessage: '{first} and {others, plural, one {# other} other {# others}}' }, { first, others: rest.length });
}

/** Unsent drafts are deleted 24 hours after they were started (transfers/end.ts on the server). */
const draftDeletedAt = (transfer: TransferSummary) => new Date(Date.parse(transfer.createdAt) + 24 * 3_600_000).toISOString();

/** The list's columns from `md` up, shared by its header row (transfer-list.tsx) and every row. */
export const transferGrid = 'md:grid-cols-[minmax(0,2.5fr)_minmax(0,1fr)_minmax(0,1.4fr)_minmax(0,0.8fr)_minmax(0,1.2fr)_10.5rem]';

/** What can be done to a transfer from the list: copy a working link, revoke a sent one, discard a draft. */
function RowActions({ transfer, name }: { transfer: TransferSummary; name: string }) {
  const intl = useIntl();
  const state = linkState(transfer);
  const revoke = useRevokeTransfer(transfer.id);
  const discard = useDiscardTransfer(transfer.id);
  return (
    // Above the card-wide link, so these stay clickable.
    <div className="relative z-10 mt-3 flex flex-wrap gap-2 md:mt-0 md:justify-end">
      {(state === 'live' || state === 'limit_reached') && transfer.e2ee ? (
        // The link without its key opens nothing, and the key is not the service's to give.
        <p className="max-w-56 text-xs text-zinc-600 md:text-end dark:text-zinc-400">
          {intl.formatMessage({ id: 'transfers.row.noLinkEncrypted', defaultMessage: 'No link to copy: its key was shown once, in the browser that sent it.' })}
        </p>
      ) : state === 'live' || state === 'limit_reached' ? (
        <CopyButton
          text={transfer.url}
          label={intl.formatMessage({ id: 'transfers.row.copyLink', defaultMessage: 'Copy link' })}
          accessibleName={intl.formatMessage({ id: 'transfers.row.copyLinkTo', defaultMessage: 'Copy link to {name}' }, { name })}
          className="px-2.5 py-1 text-xs"
        />
      ) : null}
      {state === 'draft' ? (
        <ConfirmedAction
          label={intl.formatMessage({ id: 'transfers.row.discard', defaultMessage: 'Discard' })}
          accessibleName={intl.formatMessage({ id: 'transfers.row.discardName', defaultMessage: 'Discard {name}' }, { name })}
          size="small"
          title={intl.formatMessage({ id: 'transfers.row.discardTitle', defaultMessage: 'Discard “{name}”?' }, { name })}
          pendingLabel={intl.formatMessage({ id: 'transfers.row.discarding', defaultMessage: 'Discarding…' })}
          action={discard}
          onDone={() => undefined}
        >
          {intl.formatMessage({ id: 'transfers.row.discardBody', defaultMessage: 'The draft and the files uploaded to it are deleted. This cannot be undone.' })}
        </ConfirmedAction>
      ) : transfer.status === 'active' ? (
        <ConfirmedAction
          label={intl.formatMessage({ id: 'transfers.row.revoke', defaultMessage: 'Revoke' })}
          accessibleName={intl.formatMessage({ id: 'transfers.row.revokeName', defaultMessage: 'Revoke {name}' }, { name })}
          size="small"
          title={intl.formatMessage({ id: 'transfers.row.revokeTitle', defaultMessage: 'Revoke “{name}”?' }, { name })}
          pendingLabel={intl.formatMessage({ id: 'transfers.row.revoking', defaultMessage: 'Revoking…' })}
          action={revoke}
          onDone={() => undefined}
        >
          {intl.formatMessage({ id: 'transfers.row.revokeBody', defaultMessage: 'The link stops working and nobody can download the files any more. This cannot be undone.' })}
        </ConfirmedAction>
      ) : null}
    </div>
  );
}

/** One transfer: a card on a phone, a row of columns from `md` up (the list's header names them). */
export function TransferRow({ transfer }: { transfer: TransferSummary }) {
  const intl = useIntl();
  const [label] = useTransferLabel(transfer.id);
  const name = transferName(transfer, transfer.firstFileName, label, intl);
  const state = linkState(transfer);
  return (
    <li className={`relative rounded-lg border border-zinc-200 bg-white p-4 focus-within:ring-2 focus-within:ring-indigo-500 hover:border-zinc-300 md:grid ${transferGrid} md:items-center md:gap-4 md:rounded-none md:border-0 md:border-b md:px-4 md:py-3 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-zinc-700`}>
      <div className="min-w-0">
        <h3 className="truncate font-medium">
          {/* The whole card is the link's target area; the name is its accessible text. */}
          <Link
            to="/transfers/$transferId"
            params={{ transferId: transfer.id }}
            className="after:absolute after:inset-0 after:content-[''] focus:outline-none"
          >
            {name}
          </Link>
        </h3>
        <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1">
          <TransferStatusBadges transfer={transfer} />
          <MadeBy by={transfer.sentBy} verb="sent" />
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 md:col-span-4 md:mt-0 md:grid-cols-subgrid">
        <Fact term={intl.formatMessage({ id: 'transfers.row.files', defaultMessage: 'Files' })}>
          <span>
            {intl.formatMessage(
              { id: 'transfers.row.sizeAndCount', defaultMessage: '{size} · {count, plural, one {# file} other {# files}}' },
              { size: formatBytes(transfer.sizeBytes), count: transfer.fileCount },
            )}
          </span>
          {transfer.firstFileName ? (
            <span className="block truncate text-xs text-zinc-500 dark:text-zinc-400">
              {intl.formatMessage(
                { id: 'transfers.row.firstFile', defaultMessage: '<hidden>First file: </hidden>{name}' },
                {
                  hidden: (chunks: ReactNode[]) => (
                    <span key="hidden" className="sr-only">
                      {chunks}
                    </span>
                  ),
                  name: <bdi key="name">{transfer.firstFileName}</bdi>,
                },
              )}
            </span>
          ) : null}
        </Fact>
        <Fact term={intl.formatMessage({ id: 'transfers.row.recipients', defaultMessage: 'Recipients' })}>
          <span title={intl.formatList(transfer.recipients, { type: 'unit' })}>{describeRecipients(transfer.recipients, intl)}</span>
        </Fact>
        <Fact term={intl.formatMessage({ id: 'transfers.row.downloads', defaultMessage: 'Downloads' })}>{describeDownloads(transfer, intl)}</Fact>
        <Fact term={intl.formatMessage({ id: 'transfers.row.expiry', defaultMessage: 'Expiry' })}>
          {state === 'draft' ? (
            // A draft's link expiry does not apply yet; what happens to it is the sweep of unsent drafts.
            <time dateTime={draftDeletedAt(transfer)} title={formatDateTime(draftDeletedAt(transfer))}>
              {intl.formatMessage(
                { id: 'transfers.row.draftDeleted', defaultMessage: 'deleted {when} unless sent' },
                { when: formatRelativeTime(draftDeletedAt(transfer)) },
              )}
            </time>
          ) : state === 'revoked' ? (
            // A revoked link ended when it was revoked; its planned expiry no longer means anything.
            intl.formatMessage({ id: 'transfers.row.revoked', defaultMessage: 'revoked' })
          ) : state === 'infected' ? (
            intl.formatMessage({ id: 'transfers.row.malwareRemoved', defaultMessage: 'removed: malware found' })
          ) : (
            <time dateTime={transfer.expiresAt} title={formatDateTime(transfer.expiresAt)}>
              {describeExpiry(transfer.expiresAt, intl)}
            </time>
          )}
        </Fact>
      </dl>
      <RowActions transfer={transfer} name={name} />
    </li>
  );
}
