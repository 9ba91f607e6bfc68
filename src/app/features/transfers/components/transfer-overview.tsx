import type { ReactNode } from 'react';
import type { Transfer } from '../../../../contract/transfers';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { plural } from '../../../lib/format';
import { describeDownloads, describeExpiry, linkState } from '../utils/transfer-display';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-zinc-600 dark:text-zinc-400">{term}</dt>
      <dd className="mt-0.5 text-sm font-medium break-words">{children}</dd>
    </div>
  );
}

function When({ iso, children }: { iso: string; children?: ReactNode }) {
  return <time dateTime={iso}>{children ?? formatDateTime(iso)}</time>;
}

export function TransferOverview({ transfer }: { transfer: Transfer }) {
  const state = linkState(transfer);
  return (
    <dl aria-label="About this transfer" className="grid grid-cols-2 gap-4 rounded-lg border border-zinc-200 bg-white p-5 sm:grid-cols-3 lg:grid-cols-6 dark:border-zinc-800 dark:bg-zinc-900">
      <Fact term="Created">
        <When iso={transfer.createdAt} />
      </Fact>
      <Fact term="Sent">
        {transfer.finalizedAt ? <When iso={transfer.finalizedAt} /> : transfer.sendRequestedAt ? 'When its last URL import lands' : 'Not sent yet'}
      </Fact>
      {state === 'revoked' || state === 'infected' ? (
        <Fact term="Link">
          {state === 'revoked' ? 'Revoked' : 'Blocked'}
          <span className="block text-xs font-normal text-zinc-600 dark:text-zinc-400">
            {state === 'revoked' ? 'Its files were deleted.' : 'A virus scan found malware in a file; every file was deleted.'}
          </span>
        </Fact>
      ) : (
        <Fact term={state === 'expired' ? 'Expired' : 'Expires'}>
          <When iso={transfer.expiresAt} />
          <span className="block text-xs font-normal text-zinc-600 dark:text-zinc-400">
            {describeExpiry(transfer.expiresAt)}
            {state === 'expired' ? '; its files were deleted' : ''}
          </span>
        </Fact>
      )}
      <Fact term="Size">
        {formatBytes(transfer.sizeBytes)}, {plural(transfer.fileCount, 'file', 'files')}
      </Fact>
      <Fact term="Downloads">
        {describeDownloads(transfer)}
        {state === 'limit_reached' ? <span className="block text-xs font-normal text-zinc-600 dark:text-zinc-400">limit reached</span> : null}
      </Fact>
      <Fact term="Password">{transfer.hasPassword ? 'Required' : 'None'}</Fact>
      {transfer.message ? (
        <div className="col-span-full">
          <dt className="text-xs text-zinc-600 dark:text-zinc-400">Message</dt>
          <dd className="mt-0.5 text-sm whitespace-pre-line break-words">{transfer.message}</dd>
        </div>
      ) : null}
    </dl>
  );
}
