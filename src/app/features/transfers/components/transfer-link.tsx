import { CopyField } from '../../../components/copy-field';
import { QrCode } from '../../../components/qr-code';
import { Section } from '../../../components/section';

/**
 * The recipients' link: shown only while it works (sent, neither expired nor revoked). An end-to-end encrypted
 * transfer's key was never sent to the service, so its link cannot be shown here: only the sender's saved copy opens it.
 */
export function TransferLink({ url, e2ee = false }: { url: string; e2ee?: boolean }) {
  if (e2ee) {
    return (
      <Section title="Link" description="End-to-end encrypted: the service never had the key that opens these files.">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          No link to copy here: the link without its key opens nothing, and the key (after <span className="font-mono">#</span>) was shown once, in the
          browser that sent it. It cannot be shown again: if it is lost, nobody can open the files, not even us. Send them again to get a new link.
        </p>
      </Section>
    );
  }
  return (
    <Section title="Link" description="Anyone with this link can download the files until the transfer ends.">
      <CopyField label="Transfer link" value={url} />
      <div className="mt-4 flex justify-center sm:justify-start">
        <QrCode value={url} label="QR code for the transfer link" />
      </div>
    </Section>
  );
}
