import type { ReactNode } from 'react';
import { CopyField } from '../../../components/copy-field';
import { QrCode } from '../../../components/qr-code';
import { Section } from '../../../components/section';
import { useIntl } from '../../../lib/intl';

/** The key's marker in a link, set in code type. */
const mono = (chunks: ReactNode[]) => (
  <span key="mono" className="font-mono">
    {chunks}
  </span>
);

/**
 * The recipients' link: shown only while it works (sent, neither expired nor revoked). An end-to-end encrypted
 * transfer's key was never sent to the service, so its link cannot be shown here: only the sender's saved copy opens it.
 */
export function TransferLink({ url, e2ee = false }: { url: string; e2ee?: boolean }) {
  const intl = useIntl();
  const title = intl.formatMessage({ id: 'transfers.link.title', defaultMessage: 'Link' });
  if (e2ee) {
    return (
      <Section
        title={title}
        description={intl.formatMessage({ id: 'transfers.link.encryptedLead', defaultMessage: 'End-to-end encrypted: the service never had the key that opens these files.' })}
      >
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          {intl.formatMessage(
            {
              id: 'transfers.link.encryptedNoLink',
              defaultMessage:
                'No link to copy here: the link without its key opens nothing, and the key (after <mono>#</mono>) was shown once, in the browser that sent it. It cannot be shown again: if it is lost, nobody can open the files, not even us. Send them again to get a new link.',
            },
            { mono },
          )}
        </p>
      </Section>
    );
  }
  return (
    <Section title={title} description={intl.formatMessage({ id: 'transfers.link.lead', defaultMessage: 'Anyone with this link can download the files until the transfer ends.' })}>
      <CopyField label={intl.formatMessage({ id: 'transfers.link.fieldLabel', defaultMessage: 'Transfer link' })} value={url} />
      <div className="mt-4 flex justify-center sm:justify-start">
        <QrCode value={url} label={intl.formatMessage({ id: 'transfers.link.qrLabel', defaultMessage: 'QR code for the transfer link' })} />
      </div>
    </Section>
  );
}
