import { useId, useState } from 'react';
import type { IntlShape } from 'react-intl';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { CopyButton } from '../../../components/copy-button';
import { FormError } from '../../../components/form-error';
import { useIntl } from '../../../lib/intl';
import { vaultMessages } from './vault-messages';

/**
 * The code as a text file the owner keeps: what it is and how to use it, so it still makes sense in a year. In the
 * page's language; the date as an ISO date (year-month-day), read the same everywhere.
 */
function recoveryFile(code: string, intl: IntlShape): string {
  return [
    intl.formatMessage({ id: 'vault.recoveryFile.title', defaultMessage: 'Parcel vault recovery code' }),
    '',
    code,
    '',
    intl.formatMessage(
      {
        id: 'vault.recoveryFile.howTo',
        defaultMessage:
          'If you forget your vault passphrase: open your vault, choose "{button}",\ntype this code and choose a new passphrase. Anyone with this code and your account can open your vault.',
      },
      { button: intl.formatMessage(vaultMessages.forgotButton) },
    ),
    intl.formatMessage({ id: 'vault.recoveryFile.saved', defaultMessage: 'Saved {date}.' }, { date: new Date().toISOString().slice(0, 10) }),
    '',
  ].join('\n');
}

function downloadText(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The recovery code, shown once: the only other way into the vault. The owner copies or downloads it, confirms it is
 * kept, and only then does the vault exist (or the passphrase change take effect).
 */
export function RecoveryCodeStep({ code, confirmLabel, onConfirmed }: { code: string; confirmLabel: string; onConfirmed: () => Promise<void> }) {
  const intl = useIntl();
  const checkboxId = useId();
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function confirm() {
    setPending(true);
    setError(null);
    try {
      await onConfirmed();
    } catch (cause) {
      setError(cause);
      setPending(false);
    }
  }

  return (
    <Card className="max-w-2xl">
      <h2 className="text-lg font-semibold">{intl.formatMessage({ id: 'vault.recovery.heading', defaultMessage: 'Save your recovery code' })}</h2>
      <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
        {intl.formatMessage({
          id: 'vault.recovery.intro',
          defaultMessage:
            'This code opens your vault if you forget your passphrase. It is shown only now: keep it somewhere safe and apart from this device, such as a password manager or a printed copy.',
        })}
      </p>
      <p
        aria-label={intl.formatMessage({ id: 'vault.recovery.codeLabel', defaultMessage: 'Recovery code' })}
        className="mt-4 rounded-md border border-zinc-300 bg-zinc-50 p-4 font-mono text-base leading-relaxed tracking-wider break-words select-all dark:border-zinc-700 dark:bg-zinc-950"
        data-testid="recovery-code"
      >
        {code}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <CopyButton text={code} label={intl.formatMessage({ id: 'vault.recovery.copy', defaultMessage: 'Copy code' })} />
        <Button variant="secondary" onClick={() => downloadText('parcel-vault-recovery-code.txt', recoveryFile(code, intl))}>
          {intl.formatMessage({ id: 'vault.recovery.download', defaultMessage: 'Download as a text file' })}
        </Button>
      </div>
      <div className="mt-5 flex items-start gap-3">
        <input id={checkboxId} type="checkbox" className="mt-0.5 size-4 accent-indigo-600" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
        <label htmlFor={checkboxId} className="text-sm">
          {intl.formatMessage({
            id: 'vault.recovery.confirm',
            defaultMessage: 'I have saved my recovery code. I understand that without it and without my passphrase, my vault cannot be opened by anyone.',
          })}
        </label>
      </div>
      <FormError error={error} className="mt-4" />
      <Button className="mt-4" disabled={!saved || pending} onClick={() => void confirm()}>
        {pending ? intl.formatMessage({ id: 'vault.recovery.saving', defaultMessage: 'Saving…' }) : confirmLabel}
      </Button>
    </Card>
  );
}
