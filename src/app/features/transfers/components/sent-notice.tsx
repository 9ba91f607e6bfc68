import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { Transfer } from '../../../../contract/transfers';
import { Button, buttonClass } from '../../../components/button';
import { CopyField } from '../../../components/copy-field';
import { QrCode } from '../../../components/qr-code';
import { formatDateTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';

/** An end-to-end encrypted transfer's link as only the sending page knows it: with the key, and a message for the sender's mail app. */
export interface EncryptedLink {
  /** The transfer's URL with `#v1.<key>`. */
  url: string;
  /** `mailto:` to the recipients typed (never sent to the service); null when none were. */
  mailto: string | null;
  recipientCount: number;
}

const sectionClass =
  'mb-6 flex flex-wrap items-center justify-between gap-4 rounded-lg border border-emerald-300 bg-emerald-50 p-4 dark:border-emerald-800 dark:bg-emerald-950/50';
const textClass = 'mt-1 text-sm text-emerald-900 dark:text-emerald-100';

/** The key's marker in a link, set in code type. */
const mono = (chunks: ReactNode[]) => (
  <span key="mono" className="font-mono">
    {chunks}
  </span>
);

/**
 * Shown right after a transfer was sent from the dashboard. A plain transfer's sender lands on its page, where the
 * link, its QR code and the recipients stay after a refresh. An encrypted transfer's sender stays on the sending
 * page, which alone holds the key: the full link is shown once, with a QR code and the mail to the recipients.
 */
export function SentNotice({ transfer, encrypted, onSendAnother }: { transfer: Transfer; encrypted?: EncryptedLink; onSendAnother?: () => void }) {
  const intl = useIntl();
  const sendAnotherLabel = intl.formatMessage({ id: 'transfers.sent.sendAnother', defaultMessage: 'Send another' });
  const sendAnother = onSendAnother ? (
    <Button variant="secondary" onClick={onSendAnother}>
      {sendAnotherLabel}
    </Button>
  ) : (
    <Link to="/transfers/new" className={buttonClass('secondary')}>
      {sendAnotherLabel}
    </Link>
  );
  if (transfer.e2ee) return <EncryptedSentNotice transfer={transfer} encrypted={encrypted} sendAnother={sendAnother} />;
  const emailed = transfer.recipients.length;
  const date = formatDateTime(transfer.expiresAt);
  // Recipients are mailed once the last URL import lands, not at sending.
  const importing = transfer.files.some((f) => f.state === 'importing');
  return (
    <section aria-labelledby="sent-heading" className={sectionClass}>
      <div>
        <h2 id="sent-heading" className="font-semibold text-emerald-900 dark:text-emerald-100">
          {intl.formatMessage({ id: 'transfers.sent.heading', defaultMessage: 'Your transfer is on its way' })}
        </h2>
        <p className={textClass}>
          {emailed === 0
            ? intl.formatMessage({ id: 'transfers.sent.nobodyEmailed', defaultMessage: 'Nobody was emailed: share the link yourself. The link works until {date}.' }, { date })
            : importing
              ? intl.formatMessage(
                  {
                    id: 'transfers.sent.emailedOnArrival',
                    defaultMessage:
                      '{count, plural, one {# recipient is} other {# recipients are}} emailed a link as soon as the files imported from URLs arrive. The link works until {date}.',
                  },
                  { count: emailed, date },
                )
              : intl.formatMessage(
                  { id: 'transfers.sent.emailed', defaultMessage: '{count, plural, one {# recipient was} other {# recipients were}} emailed a link. The link works until {date}.' },
                  { count: emailed, date },
                )}
        </p>
      </div>
      {sendAnother}
      {/* The link first, where a phone shows it without scrolling past the details. */}
      <CopyField label={intl.formatMessage({ id: 'transfers.sent.linkLabel', defaultMessage: 'Link to share' })} value={transfer.url} className="w-full" />
    </section>
  );
}

function EncryptedSentNotice({ transfer, encrypted, sendAnother }: { transfer: Transfer; encrypted: EncryptedLink | undefined; sendAnother: ReactNode }) {
  const intl = useIntl();
  const date = formatDateTime(transfer.expiresAt);
  return (
    <section aria-labelledby="sent-heading" className={sectionClass}>
      <div>
        <h2 id="sent-heading" className="font-semibold text-emerald-900 dark:text-emerald-100">
          {intl.formatMessage({ id: 'transfers.sent.encryptedHeading', defaultMessage: 'Your encrypted transfer is ready' })}
        </h2>
        <p className={textClass}>
          {encrypted
            ? intl.formatMessage(
                { id: 'transfers.sent.encryptedShare', defaultMessage: 'The service emailed nobody and never had the key: share the link yourself. The link works until {date}.' },
                { date },
              )
            : intl.formatMessage(
                {
                  id: 'transfers.sent.encryptedNoLink',
                  defaultMessage:
                    'It is end-to-end encrypted: the service never had its key, so this page cannot show a link that opens the files. The link works until {date}.',
                },
                { date },
              )}
        </p>
      </div>
      {sendAnother}
      {encrypted ? (
        <>
          <div
            role="note"
            className="w-full rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100"
          >
            <p className="font-semibold">
              {intl.formatMessage({ id: 'transfers.sent.saveLinkNow', defaultMessage: 'Save this link now: it is the only way to open these files.' })}
            </p>
            <p className="mt-1">
              {intl.formatMessage(
                {
                  id: 'transfers.sent.keyExplained',
                  defaultMessage:
                    'The key is the part after <mono>#</mono>. It is shown only here and kept nowhere else: lose the link and nobody, not even us, can open the files.',
                },
                { mono },
              )}
            </p>
          </div>
          <CopyField
            label={intl.formatMessage({ id: 'transfers.sent.linkWithKeyLabel', defaultMessage: 'Link to share (with its key)' })}
            value={encrypted.url}
            className="w-full"
          />
          <div className="flex w-full flex-col items-center gap-4 sm:flex-row sm:items-start">
            <QrCode value={encrypted.url} label={intl.formatMessage({ id: 'transfers.sent.qrWithKey', defaultMessage: 'QR code for the link with its key' })} />
            {encrypted.mailto ? (
              <div className="space-y-2">
                <a href={encrypted.mailto} className={buttonClass('primary')}>
                  {intl.formatMessage(
                    { id: 'transfers.sent.emailLink', defaultMessage: 'Email the link to {count, plural, one {# recipient} other {# recipients}}' },
                    { count: encrypted.recipientCount },
                  )}
                </a>
                <p className="text-sm text-emerald-900 dark:text-emerald-100">
                  {intl.formatMessage({ id: 'transfers.sent.mailAppHint', defaultMessage: 'Opens a message in your own mail app, so the key never passes through us.' })}
                </p>
              </div>
            ) : null}
          </div>
        </>
      ) : null}
    </section>
  );
}
