import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { IntlShape } from 'react-intl';
import type { Vault } from '../../../../contract/vault';
import { argon2InWorker, createVault, recoverVault, unlockVault, type Argon2id, type NewVault } from '../../../../crypto';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { FormError } from '../../../components/form-error';
import { TextField } from '../../../components/text-field';
import { useIntl } from '../../../lib/intl';
import { createVaultRecord, replaceVaultRecord, vaultKeys } from '../api/vault-api';
import { vaultErrorMessage } from '../utils/vault-errors';
import { unlockVaultWith } from '../vault-lock';
import { NewPassphraseFields, useNewPassphraseForm } from './new-passphrase-fields';
import { RecoveryCodeStep } from './recovery-code';
import { vaultMessages } from './vault-messages';

interface AccessProps {
  userId: string;
  /** Argon2id: in a Worker in the browser; tests pass a quick stand-in. */
  argon2?: Argon2id;
}

/** What the button says while Argon2id works on a new passphrase (a few seconds). */
const working = (intl: IntlShape) => intl.formatMessage({ id: 'vault.access.working', defaultMessage: 'Securing your passphrase…' });

/** Before there is a vault: what it is, the one warning that matters, a passphrase, then the recovery code. */
export function CreateVault({ userId, argon2 = argon2InWorker }: AccessProps) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const form = useNewPassphraseForm();
  const [made, setMade] = useState<NewVault | null>(null);
  const submit = form.submit(async (passphrase) => setMade(await createVault(passphrase, { accountId: userId, argon2 })));

  if (made) {
    // The vault is stored only once the code is saved: there is never a vault whose only way back was not kept.
    return (
      <RecoveryCodeStep
        code={made.recoveryCode}
        confirmLabel={intl.formatMessage({ id: 'vault.create.confirm', defaultMessage: 'Create my vault' })}
        onConfirmed={async () => {
          const vault = await createVaultRecord(made.record);
          queryClient.setQueryData<Vault | null>(vaultKeys.vault, vault);
          unlockVaultWith(made.masterKey, userId);
        }}
      />
    );
  }

  return (
    <Card className="max-w-2xl">
      <h2 className="text-lg font-semibold">{intl.formatMessage({ id: 'vault.create.heading', defaultMessage: 'Create your vault' })}</h2>
      <div className="mt-2 space-y-2 text-sm text-zinc-700 dark:text-zinc-300">
        <p>
          {intl.formatMessage({
            id: 'vault.create.intro',
            defaultMessage:
              'Files in your vault are encrypted in this browser before they are uploaded. Their names and previews are too. The server stores only what it cannot read, and only your passphrase opens it.',
          })}
        </p>
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100">
          {intl.formatMessage(
            {
              id: 'vault.create.warning',
              defaultMessage:
                '<strong>There is no “forgot passphrase”.</strong> You will get a recovery code next. If you lose both your passphrase and the recovery code, nobody can open your vault, not us and not this server’s operator: its files are lost for good.',
            },
            { strong: (chunks: ReactNode[]) => <strong key="strong">{chunks}</strong> },
          )}
        </p>
      </div>
      <form className="mt-5 space-y-4" onSubmit={submit} noValidate>
        <NewPassphraseFields label={intl.formatMessage({ id: 'vault.access.passphraseLabel', defaultMessage: 'Vault passphrase' })} {...form.fields} />
        <FormError error={form.error} />
        <Button type="submit" disabled={form.pending}>
          {form.pending ? working(intl) : intl.formatMessage({ id: 'vault.create.continue', defaultMessage: 'Continue' })}
        </Button>
      </form>
    </Card>
  );
}

/** A locked vault: its passphrase, or the recovery code and a new passphrase. */
export function UnlockVault({ userId, vault, argon2 = argon2InWorker }: AccessProps & { vault: Vault }) {
  const intl = useIntl();
  const [recovering, setRecovering] = useState(false);
  const [passphrase, setPassphrase] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (passphrase === '') {
      setError(new Error(intl.formatMessage({ id: 'vault.unlock.passphraseMissing', defaultMessage: 'Type your vault passphrase.' })));
      return;
    }
    setPending(true);
    setError(null);
    try {
      const master = await unlockVault(vault.record, passphrase, { accountId: userId, argon2 });
      setPassphrase('');
      unlockVaultWith(master, userId);
    } catch (cause) {
      setError(vaultErrorMessage(cause, intl));
    } finally {
      setPending(false);
    }
  }

  if (recovering) return <RecoverVault userId={userId} vault={vault} argon2={argon2} onCancel={() => setRecovering(false)} />;
  return (
    <Card className="max-w-md">
      <h2 className="text-lg font-semibold">{intl.formatMessage({ id: 'vault.unlock.heading', defaultMessage: 'Your vault is locked' })}</h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage({ id: 'vault.unlock.intro', defaultMessage: 'Type your vault passphrase to open it in this tab.' })}
      </p>
      <form className="mt-4 space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label={intl.formatMessage({ id: 'vault.access.passphraseLabel', defaultMessage: 'Vault passphrase' })}
          type="password"
          autoComplete="current-password"
          autoFocus
          value={passphrase}
          onChange={(event) => setPassphrase(event.target.value)}
        />
        <FormError error={error} />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={pending}>
            {pending
              ? intl.formatMessage({ id: 'vault.unlock.unlocking', defaultMessage: 'Unlocking…' })
              : intl.formatMessage({ id: 'vault.unlock.unlock', defaultMessage: 'Unlock' })}
          </Button>
          <button
            type="button"
            className="text-sm font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
            onClick={() => setRecovering(true)}
          >
            {intl.formatMessage(vaultMessages.forgotButton)}
          </button>
        </div>
      </form>
    </Card>
  );
}

function RecoverVault({ userId, vault, argon2, onCancel }: Required<AccessProps> & { vault: Vault; onCancel: () => void }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const form = useNewPassphraseForm();
  const submit = form.submit(async (passphrase) => {
    const recovered = await recoverVault(vault.record, code, passphrase, { accountId: userId, argon2 });
    queryClient.setQueryData<Vault | null>(vaultKeys.vault, await replaceVaultRecord(recovered.record));
    unlockVaultWith(recovered.masterKey, userId);
  });

  return (
    <Card className="max-w-2xl">
      <h2 className="text-lg font-semibold">{intl.formatMessage({ id: 'vault.recover.heading', defaultMessage: 'Recover your vault' })}</h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage({
          id: 'vault.recover.intro',
          defaultMessage: 'Type the recovery code you saved when you created the vault, and choose a new passphrase. Your files stay as they are.',
        })}
      </p>
      <form className="mt-4 space-y-4" onSubmit={submit} noValidate>
        <TextField
          label={intl.formatMessage({ id: 'vault.recover.codeLabel', defaultMessage: 'Recovery code' })}
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="characters"
          className="[&_input]:font-mono"
          hint={intl.formatMessage({ id: 'vault.recover.codeHint', defaultMessage: '56 characters in groups of four; dashes, spaces and case do not matter.' })}
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
        <NewPassphraseFields label={intl.formatMessage({ id: 'vault.recover.passphraseLabel', defaultMessage: 'New vault passphrase' })} {...form.fields} />
        <FormError error={form.error} />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={form.pending}>
            {form.pending ? working(intl) : intl.formatMessage({ id: 'vault.recover.submit', defaultMessage: 'Recover and unlock' })}
          </Button>
          <Button variant="secondary" onClick={onCancel} disabled={form.pending}>
            {intl.formatMessage({ id: 'vault.recover.back', defaultMessage: 'Back' })}
          </Button>
        </div>
      </form>
    </Card>
  );
}
