import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Vault } from '../../../../contract/vault';
import { argon2InWorker, createVault, recoverVault, unlockVault, type Argon2id, type NewVault } from '../../../../crypto';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { FormError } from '../../../components/form-error';
import { TextField } from '../../../components/text-field';
import { createVaultRecord, replaceVaultRecord, vaultKeys } from '../api/vault-api';
import { vaultErrorMessage } from '../utils/vault-errors';
import { unlockVaultWith } from '../vault-lock';
import { NewPassphraseFields, useNewPassphraseForm } from './new-passphrase-fields';
import { RecoveryCodeStep } from './recovery-code';

interface AccessProps {
  userId: string;
  /** Argon2id: in a Worker in the browser; tests pass a quick stand-in. */
  argon2?: Argon2id;
}

const WORKING = 'Securing your passphrase…';

/** Before there is a vault: what it is, the one warning that matters, a passphrase, then the recovery code. */
export function CreateVault({ userId, argon2 = argon2InWorker }: AccessProps) {
  const queryClient = useQueryClient();
  const form = useNewPassphraseForm();
  const [made, setMade] = useState<NewVault | null>(null);
  const submit = form.submit(async (passphrase) => setMade(await createVault(passphrase, { accountId: userId, argon2 })));

  if (made) {
    // The vault is stored only once the code is saved: there is never a vault whose only way back was not kept.
    return (
      <RecoveryCodeStep
        code={made.recoveryCode}
        confirmLabel="Create my vault"
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
      <h2 className="text-lg font-semibold">Create your vault</h2>
      <div className="mt-2 space-y-2 text-sm text-zinc-700 dark:text-zinc-300">
        <p>
          Files in your vault are encrypted in this browser before they are uploaded. Their names and previews are too. The server stores only what it cannot
          read, and only your passphrase opens it.
        </p>
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100">
          <strong>There is no “forgot passphrase”.</strong> You will get a recovery code next. If you lose both your passphrase and the recovery code, nobody
          can open your vault, not us and not this server’s operator: its files are lost for good.
        </p>
      </div>
      <form className="mt-5 space-y-4" onSubmit={submit} noValidate>
        <NewPassphraseFields label="Vault passphrase" {...form.fields} />
        <FormError error={form.error} />
        <Button type="submit" disabled={form.pending}>
          {form.pending ? WORKING : 'Continue'}
        </Button>
      </form>
    </Card>
  );
}

/** A locked vault: its passphrase, or the recovery code and a new passphrase. */
export function UnlockVault({ userId, vault, argon2 = argon2InWorker }: AccessProps & { vault: Vault }) {
  const [recovering, setRecovering] = useState(false);
  const [passphrase, setPassphrase] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (passphrase === '') {
      setError(new Error('Type your vault passphrase.'));
      return;
    }
    setPending(true);
    setError(null);
    try {
      const master = await unlockVault(vault.record, passphrase, { accountId: userId, argon2 });
      setPassphrase('');
      unlockVaultWith(master, userId);
    } catch (cause) {
      setError(vaultErrorMessage(cause));
    } finally {
      setPending(false);
    }
  }

  if (recovering) return <RecoverVault userId={userId} vault={vault} argon2={argon2} onCancel={() => setRecovering(false)} />;
  return (
    <Card className="max-w-md">
      <h2 className="text-lg font-semibold">Your vault is locked</h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">Type your vault passphrase to open it in this tab.</p>
      <form className="mt-4 space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label="Vault passphrase"
          type="password"
          autoComplete="current-password"
          autoFocus
          value={passphrase}
          onChange={(event) => setPassphrase(event.target.value)}
        />
        <FormError error={error} />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={pending}>
            {pending ? 'Unlocking…' : 'Unlock'}
          </Button>
          <button
            type="button"
            className="text-sm font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
            onClick={() => setRecovering(true)}
          >
            Forgot it? Use your recovery code
          </button>
        </div>
      </form>
    </Card>
  );
}

function RecoverVault({ userId, vault, argon2, onCancel }: Required<AccessProps> & { vault: Vault; onCancel: () => void }) {
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
      <h2 className="text-lg font-semibold">Recover your vault</h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        Type the recovery code you saved when you created the vault, and choose a new passphrase. Your files stay as they are.
      </p>
      <form className="mt-4 space-y-4" onSubmit={submit} noValidate>
        <TextField
          label="Recovery code"
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="characters"
          className="[&_input]:font-mono"
          hint="56 characters in groups of four; dashes, spaces and case do not matter."
          value={code}
          onChange={(event) => setCode(event.target.value)}
        />
        <NewPassphraseFields label="New vault passphrase" {...form.fields} />
        <FormError error={form.error} />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={form.pending}>
            {form.pending ? WORKING : 'Recover and unlock'}
          </Button>
          <Button variant="secondary" onClick={onCancel} disabled={form.pending}>
            Back
          </Button>
        </div>
      </form>
    </Card>
  );
}
