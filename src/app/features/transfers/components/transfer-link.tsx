import { useId } from 'react';
import { CopyButton } from '../../../components/copy-button';
import { QrCode } from '../../../components/qr-code';
import { inputClass } from '../../../components/text-field';
import { Section } from './section';

/** The recipients' link: shown only while it works (sent, neither expired nor revoked). */
export function TransferLink({ url }: { url: string }) {
  const fieldId = useId();
  return (
    <Section title="Link" description="Anyone with this link can download the files until the transfer ends.">
      <label htmlFor={fieldId} className="block text-sm font-medium">
        Transfer link
      </label>
      <div className="mt-1 flex flex-col gap-2 sm:flex-row sm:items-center">
        <input id={fieldId} readOnly value={url} onFocus={(event) => event.target.select()} className={`${inputClass} font-mono`} />
        <CopyButton text={url} />
      </div>
      <div className="mt-4 flex justify-center sm:justify-start">
        <QrCode value={url} label="QR code for the transfer link" />
      </div>
    </Section>
  );
}
