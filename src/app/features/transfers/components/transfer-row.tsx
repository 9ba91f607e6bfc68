import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { TransferSummary } from '../../../../contract/transfers';
import { formatBytes, formatDateTime, formatRelativeTime } from '../../../lib/format';
import { plural } from '../../../lib/format';
import { ConfirmedAction } from '../../../components/confirmed-action';
import { CopyButton } from '../../../components/copy-button';
import { useTransferLabel } from '../../../lib/transfer-labels';
import { useDiscardTransfer } from '../api/discard-transfer';
import { useRevokeTransfer } from '../api/revoke-transfer';
import { describeDownloads, describeExpiry, linkState, transferName } from '../utils/transfer-display';
import { TransferStatusBadges } from './transfer-status-badges';
import { useSession } from '../../auth';

function Fact({ term, children, className = '' }: { term: string; children: ReactNode; className?: string }) {
  return (
    <div className={`min-w-0 ${className}`}>
      <dt className="text-xs text-zinc-500 md:sr-only dark:text-zinc-400">{term}</dt>
      <dd className="truncate text-sm">{children}</dd>
    </div>
  );
}

function describeRecipients(recipients: string[]): string {
  if (recipients.length === 0) return 'Link only';
  const [first, ...rest] = recipients;
  return rest.length === 0 ? first! : `${first} and ${plural(rest.length, 'other', 'others')}`;
}

/** Unsent drafts are deleted 24 hours after they were started (transfers/end.ts on the server). */
const draftDeletedAt = (transfer: TransferSummary) => new Date(Date.parse(transfer.createdAt) + 24 * 3_600_000).toISOString();

/** The list's columns from `md` up, shared by its header row (transfer-list.tsx) and every row. */
export const transferGrid = 'md:grid-cols-[minmax(0,2.5fr)_minmax(0,1fr)_minmax(0,1.4fr)_minmax(0,0.8fr)_minmax(0,1.2fr)_10.5rem]';

/** What can be done to a transfer from the list: copy a working link, revoke a sent one, discard a draft. */
function RowActions({ transfer, name }: { transfer: TransferSummary; name: string }) {
  const state = linkState(transfer);
  const revoke = useRevokeTransfer(transfer.id);
  const discard = useDiscardTransfer(transfer.id);
  return (
    // Above the card-wide link, so these stay clickable.
    <div className="relative z-10 mt-3 flex flex-wrap gap-2 md:mt-0 md:justify-end">
      {(state === 'live' || state === 'limit_reached') && transfer.e2ee ? (
        // The link without its key opens nothing, and the key is not the service's to give.
        <p className="max-w-56 text-xs text-zinc-600 md:text-right dark:text-zinc-400">No link to copy: its key was shown once, in the browser that sent it.</p>
      ) : state === 'live' || state === 'limit_reached' ? (
        <CopyButton text={transfer.url} label="Copy link" accessibleName={`Copy link to ${name}`} className="px-2.5 py-1 text-xs" />
      ) : null}
      {state === 'draft' ? (
        <ConfirmedAction label="Discard" accessibleName={`Discard ${name}`} size="small" title={`Discard “${name}”?`} pendingLabel="Discarding…" action={discard} onDone={() => undefined}>
          The draft and the files uploaded to it are deleted. This cannot be undone.
        </ConfirmedAction>
      ) : transfer.status === 'active' ? (
        <ConfirmedAction label="Revoke" accessibleName={`Revoke ${name}`} size="small" title={`Revoke “${name}”?`} pendingLabel="Revoking…" action={revoke} onDone={() => undefined}>
          The link stops working and nobody can download the files any more. This cannot be undone.
        </ConfirmedAction>
      ) : null}
    </div>
  );
}

/** Who sent it, as teammates know them: "you", their name (or address), or the API key. */
function SentBy({ sender }: { sender: TransferSummary['sentBy'] }) {
  const session = useSession();
  if (!sender) return null;
  const who = sender.kind === 'key' ? `API key “${sender.name ?? sender.id}”` : sender.id === session.user.id ? 'you' : (sender.name ?? sender.email ?? 'a former member');
  return <span className="truncate text-xs text-zinc-600 dark:text-zinc-400">by {who}</span>;
}

/** One transfer: a card on a phone, a row of columns from `md` up (the list's header names them). */
export function TransferRow({ transfer }: { transfer: TransferSummary }) {
  const [label] = useTransferLabel(transfer.id);
  const name = transferName(transfer, transfer.firstFileName, label);
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
          <SentBy sender={transfer.sentBy} />
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 md:col-span-4 md:mt-0 md:grid-cols-subgrid">
        <Fact term="Files">
          <span>
            {formatBytes(transfer.sizeBytes)} · {plural(transfer.fileCount, 'file', 'files')}
          </span>
          {transfer.firstFileName ? (
            <span className="block truncate text-xs text-zinc-500 dark:text-zinc-400">
              <span className="sr-only">First file: </span>
              {transfer.firstFileName}
            </span>
          ) : null}
        </Fact>
        <Fact term="Recipients">
          <span title={transfer.recipients.join(', ')}>{describeRecipients(transfer.recipients)}</span>
        </Fact>
        <Fact term="Downloads">{describeDownloads(transfer)}</Fact>
        <Fact term="Expiry">
          {state === 'draft' ? (
            // A draft's link expiry does not apply yet; what happens to it is the sweep of unsent drafts.
            <time dateTime={draftDeletedAt(transfer)} title={formatDateTime(draftDeletedAt(transfer))}>
              deleted {formatRelativeTime(draftDeletedAt(transfer))} unless sent
            </time>
          ) : state === 'revoked' ? (
            // A revoked link ended when it was revoked; its planned expiry no longer means anything.
            'revoked'
          ) : state === 'infected' ? (
            'removed: malware found'
          ) : (
            <time dateTime={transfer.expiresAt} title={formatDateTime(transfer.expiresAt)}>
              {describeExpiry(transfer.expiresAt)}
            </time>
          )}
        </Fact>
      </dl>
      <RowActions transfer={transfer} name={name} />
    </li>
  );
}
