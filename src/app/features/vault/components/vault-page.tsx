import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { Vault } from '../../../../contract/vault';
import { argon2InWorker, changePassphrase, type Argon2id, type MasterKey } from '../../../../crypto';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { DialogActions, ModalDialog } from '../../../components/modal-dialog';
import { PageHeader } from '../../../components/page-header';
import { SkeletonPage } from '../../../components/skeleton';
import { TextField, inputClass } from '../../../components/text-field';
import { useIntl } from '../../../lib/intl';
import type { CollectionBrowserSearch } from '../../collections';
import { replaceVaultRecord, vaultContentsQueryOptions, vaultKeys, vaultQueryOptions } from '../api/vault-api';
import { OpenedCache, openContents, type OpenedVault } from '../utils/open-contents';
import { idleChoices, idleMinutes, lockVault, setIdleMinutes, useVaultKey, type IdleMinutes } from '../vault-lock';
import { NewPassphraseFields, useNewPassphraseForm } from './new-passphrase-fields';
import { CreateVault, UnlockVault } from './vault-access';
import { VaultBrowser } from './vault-browser';
import { vaultMessages } from './vault-messages';

interface VaultPageProps {
  userId: string;
  workspaceId: string;
  search: CollectionBrowserSearch;
  onSearchChange: (change: Partial<CollectionBrowserSearch>, options?: { replace?: boolean }) => void;
  argon2?: Argon2id;
}

/** /vault: create it, unlock it, or browse it, whichever applies in this tab now. */
export function VaultPage({ userId, workspaceId, search, onSearchChange, argon2 = argon2InWorker }: VaultPageProps) {
  const intl = useIntl();
  const { data: vault } = useSuspenseQuery(vaultQueryOptions());
  const master = useVaultKey(userId);
  if (!vault) {
    return (
      <>
        <PageHeader title={intl.formatMessage(vaultMessages.title)} description={intl.formatMessage(vaultMessages.description)} />
        <CreateVault userId={userId} argon2={argon2} />
      </>
    );
  }
  if (!master) {
    return (
      <>
        <PageHeader title={intl.formatMessage(vaultMessages.title)} description={intl.formatMessage(vaultMessages.description)} />
        <UnlockVault userId={userId} vault={vault} argon2={argon2} />
      </>
    );
  }
  return (
    <UnlockedVault userId={userId} workspaceId={workspaceId} vault={vault} master={master} search={search} onSearchChange={onSearchChange} argon2={argon2} />
  );
}

/** The decrypted view of the vault, kept while it stays open with the same key; its thumbnails' URLs revoked when it locks. */
function useOpenedVault(master: MasterKey): { opened: OpenedVault | null; error: unknown } {
  // Read afresh each time the vault opens: it may have changed in another tab or device while it was locked here.
  const { data: contents, error } = useQuery({ ...vaultContentsQueryOptions(), refetchOnMount: 'always' });
  const [cache] = useState(() => new OpenedCache(master));
  const [opened, setOpened] = useState<OpenedVault | null>(null);
  useEffect(() => () => cache.clear(), [cache]);
  useEffect(() => {
    if (!contents) return;
    let current = true;
    void openContents(cache, contents).then((value) => {
      if (current) setOpened(value);
    });
    return () => {
      current = false;
    };
  }, [cache, contents]);
  return { opened, error };
}

function UnlockedVault({ userId, workspaceId, vault, master, search, onSearchChange, argon2 }: { vault: Vault; master: MasterKey } & Required<VaultPageProps>) {
  const intl = useIntl();
  const { opened, error } = useOpenedVault(master);
  const [changing, setChanging] = useState(false);
  const headerActions = (
    <>
      <Button variant="secondary" onClick={() => setChanging(true)}>
        {intl.formatMessage({ id: 'vault.page.changePassphrase', defaultMessage: 'Change passphrase' })}
      </Button>
      <Button variant="secondary" onClick={lockVault}>
        {intl.formatMessage({ id: 'vault.page.lock', defaultMessage: 'Lock' })}
      </Button>
    </>
  );
  return (
    <>
      {opened ? (
        <VaultBrowser
          userId={userId}
          workspaceId={workspaceId}
          master={master}
          vault={opened}
          record={vault}
          search={search}
          onSearchChange={onSearchChange}
          headerActions={headerActions}
        />
      ) : error ? (
        <FormError error={error} />
      ) : (
        <SkeletonPage label={intl.formatMessage({ id: 'vault.page.decrypting', defaultMessage: 'Decrypting your vault' })} />
      )}
      <IdleSetting />
      {changing ? <ChangePassphraseDialog userId={userId} vault={vault} argon2={argon2} onClose={() => setChanging(false)} /> : null}
    </>
  );
}

function IdleSetting() {
  const intl = useIntl();
  const id = useId();
  const [minutes, setMinutes] = useState<IdleMinutes>(idleMinutes);
  const menu = (
    <span key="menu" className="w-36">
      <select
        id={id}
        className={inputClass}
        value={minutes}
        onChange={(event) => {
          const next = Number(event.target.value) as IdleMinutes;
          setMinutes(next);
          setIdleMinutes(next);
        }}
      >
        {idleChoices.map((choice) => (
          <option key={choice} value={choice}>
            {choice < 60
              ? intl.formatMessage({ id: 'vault.idle.minutes', defaultMessage: '{minutes, plural, one {# minute} other {# minutes}}' }, { minutes: choice })
              : intl.formatMessage({ id: 'vault.idle.hours', defaultMessage: '{hours, plural, one {# hour} other {# hours}}' }, { hours: choice / 60 })}
          </option>
        ))}
      </select>
    </span>
  );
  // One sentence with the menu inside it: its first words are the menu's label.
  return (
    <div className="mt-6 flex flex-wrap items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
      {intl.formatMessage(
        {
          id: 'vault.idle.setting',
          defaultMessage: '<label>Lock the vault after</label>{menu}<rest>without use. It also locks when you sign out or close this tab.</rest>',
        },
        {
          menu,
          label: (chunks: ReactNode[]) => (
            <label key="label" htmlFor={id}>
              {chunks}
            </label>
          ),
          rest: (chunks: ReactNode[]) => <span key="rest">{chunks}</span>,
        },
      )}
    </div>
  );
}

/** A new passphrase: only the master key is wrapped again (no file changes); the recovery code stays valid. */
function ChangePassphraseDialog({ userId, vault, argon2, onClose }: { userId: string; vault: Vault; argon2: Argon2id; onClose: () => void }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const current = useRef<HTMLInputElement>(null);
  const [old, setOld] = useState('');
  const form = useNewPassphraseForm(old);
  const [done, setDone] = useState(false);
  const submit = form.submit(async (passphrase) => {
    const record = await changePassphrase(vault.record, old, passphrase, { accountId: userId, argon2 });
    queryClient.setQueryData<Vault | null>(vaultKeys.vault, await replaceVaultRecord(record));
    setDone(true);
  });

  return (
    <ModalDialog
      title={intl.formatMessage({ id: 'vault.change.title', defaultMessage: 'Change your vault passphrase' })}
      onClose={onClose} busy={form.pending} initialFocus={done ? undefined : current}>
      {done ? (
        <div className="space-y-4">
          <p role="status" className="text-sm">
            {intl.formatMessage({
              id: 'vault.change.done',
              defaultMessage: 'Your vault passphrase was changed. Use the new one from now on; your recovery code still works.',
            })}
          </p>
          <Button onClick={onClose}>{intl.formatMessage({ id: 'vault.change.close', defaultMessage: 'Done' })}</Button>
        </div>
      ) : (
        <form className="space-y-4" onSubmit={submit} noValidate>
          <TextField
            ref={current}
            label={intl.formatMessage({ id: 'vault.change.currentLabel', defaultMessage: 'Current passphrase' })}
            type="password"
            autoComplete="current-password"
            value={old}
            onChange={(e) => setOld(e.target.value)}
          />
          <NewPassphraseFields label={intl.formatMessage({ id: 'vault.change.newLabel', defaultMessage: 'New passphrase' })} {...form.fields} />
          <FormError error={form.error} />
          <DialogActions
            onCancel={onClose}
            pending={form.pending}
            submitLabel={intl.formatMessage({ id: 'vault.change.submit', defaultMessage: 'Change passphrase' })}
            pendingLabel={intl.formatMessage({ id: 'vault.change.changing', defaultMessage: 'Changing…' })}
          />
        </form>
      )}
    </ModalDialog>
  );
}
