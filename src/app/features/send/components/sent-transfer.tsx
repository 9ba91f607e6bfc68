import type { Transfer } from '../../../../contract/transfers';
import { Button } from '../../../components/button';
import { CopyField } from '../../../components/copy-field';
import { QrCode } from '../../../components/qr-code';
import { formatDateTime } from '../../../lib/format';

/** The sent transfer: its link to copy or scan, and who was emailed. */
export function SentTransfer({ transfer, onSendAnother }: { transfer: Transfer; onSendAnother: () => void }) {
  return (
    <section aria-labelledby="sent-heading" className="max-w-2xl space-y-6">
      <div>
        <h2 id="sent-heading" className="text-lg font-semibold">
          Your transfer is on its way
        </h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          {transfer.fileCount} {transfer.fileCount === 1 ? 'file' : 'files'}; the link works until {formatDateTime(transfer.expiresAt)}.
        </p>
      </div>
      <CopyField label="Link" value={transfer.url} />
      <QrCode value={transfer.url} label="QR code for the transfer link" />
      <div>
        <h3 className="text-sm font-medium">Emailed to</h3>
        {transfer.recipients.length > 0 ? (
          <ul className="mt-1 list-inside list-disc text-sm text-zinc-700 dark:text-zinc-300">
            {transfer.recipients.map((address) => (
              <li key={address}>{address}</li>
            ))}
          </ul>
        ) : (
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">Nobody: share the link yourself.</p>
        )}
      </div>
      <Button variant="secondary" onClick={onSendAnother}>
        Send another
      </Button>
    </section>
  );
}
