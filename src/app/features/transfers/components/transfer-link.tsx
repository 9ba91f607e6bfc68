import { CopyField } from '../../../components/copy-field';
import { QrCode } from '../../../components/qr-code';
import { Section } from '../../../components/section';

/** The recipients' link: shown only while it works (sent, neither expired nor revoked). */
export function TransferLink({ url }: { url: string }) {
  return (
    <Section title="Link" description="Anyone with this link can download the files until the transfer ends.">
      <CopyField label="Transfer link" value={url} />
      <div className="mt-4 flex justify-center sm:justify-start">
        <QrCode value={url} label="QR code for the transfer link" />
      </div>
    </Section>
  );
}
