import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { sealVaultName, type MasterKey } from '../../../../crypto';
import { isApiRequestError } from '../../../lib/api-error';
import { useIntl } from '../../../lib/intl';
import { canMoveFolderInto, type BrowserItem } from '../../collections';
import { createVaultFolder, deleteVaultFolder, deleteVaultItems, updateVaultFolder, updateVaultItem, vaultKeys, type VaultContents } from '../api/vault-api';
import type { OpenedVault } from '../utils/open-contents';

const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;

/**
 * The vault's changes. Names are sealed here before they are sent (the server cannot check them), so what the
 * collection API checks on the server (a name taken among siblings, a folder moved into itself) is checked here.
 * Each change is shown once the server took it; a refusal is shown beside the item it was about.
 */
export function useVaultActions({ master, vault, announce }: { master: MasterKey; vault: OpenedVault; announce: (text: string) => void }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<ReadonlyMap<string, string>>(new Map());

  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: vaultKeys.all }),
    [queryClient],
  );

  const setError = useCallback((key: string, message: string | null) => {
    setErrors((current) => {
      const next = new Map(current);
      if (message === null) next.delete(key);
      else next.set(key, message);
      return next;
    });
  }, []);

  /** A sibling already named so (regardless of case), other than `exceptId`. */
  const nameTaken = useCallback(
    (parentId: string | null, name: string, exceptId?: string) =>
      vault.folders.some((f) => f.parentId === parentId && f.id !== exceptId && sameName(f.name, name)) ||
      vault.files.some((f) => f.folderId === parentId && f.id !== exceptId && sameName(f.name, name)),
    [vault],
  );

  return useMemo(() => {
    const nameTakenMessage = (name: string) =>
      intl.formatMessage({ id: 'vault.actions.nameTaken', defaultMessage: 'There is already something named “{name}” here.' }, { name });

    async function createFolder(name: string, parentId: string | null) {
      if (nameTaken(parentId, name)) throw new Error(nameTakenMessage(name));
      const folder = await createVaultFolder({ parentId });
      await updateVaultFolder(folder.id, { sealedName: await sealVaultName(master, { kind: 'folder', id: folder.id }, { name }) });
      await refresh();
      return folder;
    }

    async function run(item: BrowserItem, change: () => Promise<unknown>, done: string) {
      setError(item.key, null);
      try {
        await change();
        announce(done);
      } catch (error) {
        setError(
          item.key,
          isApiRequestError(error) || error instanceof Error
            ? error.message
            : intl.formatMessage({ id: 'vault.actions.failed', defaultMessage: 'That did not work. Try again.' }),
        );
      }
    }

    function rename(item: BrowserItem, name: string) {
      const parentId = item.kind === 'folder' ? item.folder.parentId : item.file.folderId;
      if (nameTaken(parentId, name, item.id)) {
        setError(item.key, nameTakenMessage(name));
        return Promise.resolve();
      }
      return run(
        item,
        async () => {
          if (item.kind === 'folder') {
            await updateVaultFolder(item.id, { sealedName: await sealVaultName(master, { kind: 'folder', id: item.id }, { name }) });
          } else {
            const meta = vault.byId.get(item.id)?.meta;
            if (!meta)
              throw new Error(intl.formatMessage({ id: 'vault.actions.unreadableName', defaultMessage: 'This file cannot be renamed: its name could not be read.' }));
            await updateVaultItem(item.id, { sealedMeta: await sealVaultName(master, { kind: 'file', id: item.id }, { ...meta, name }) });
          }
          await refresh();
        },
        intl.formatMessage({ id: 'vault.actions.renamed', defaultMessage: 'Renamed to “{name}”.' }, { name }),
      );
    }

    async function move(items: BrowserItem[], to: string | null, toName: string) {
      for (const item of items) {
        if (item.kind === 'folder' && !canMoveFolderInto(vault.folders, item.id, to)) {
          setError(item.key, intl.formatMessage({ id: 'vault.actions.intoItself', defaultMessage: 'A folder cannot go into itself or a folder inside it.' }));
          continue;
        }
        if (nameTaken(to, item.name, item.id)) {
          setError(
            item.key,
            intl.formatMessage({ id: 'vault.actions.nameTakenThere', defaultMessage: '“{folder}” already has something named “{name}”.' }, { folder: toName, name: item.name }),
          );
          continue;
        }
        await run(
          item,
          () => (item.kind === 'folder' ? updateVaultFolder(item.id, { parentId: to }) : updateVaultItem(item.id, { folderId: to })),
          intl.formatMessage({ id: 'vault.actions.moved', defaultMessage: 'Moved “{name}” to “{folder}”.' }, { name: item.name, folder: toName }),
        );
      }
      await refresh();
    }

    async function remove(items: BrowserItem[]) {
      const fileIds = items.filter((i) => i.kind === 'file').map((i) => i.id);
      // Shown gone at once: the list is read again either way.
      const gone = new Set(items.map((i) => i.id));
      queryClient.setQueryData<VaultContents>(vaultKeys.contents, (contents) =>
        contents ? { folders: contents.folders.filter((f) => !gone.has(f.id)), items: contents.items.filter((i) => !gone.has(i.id)) } : contents,
      );
      try {
        if (fileIds.length > 0) await deleteVaultItems(fileIds);
        for (const folder of items.filter((i) => i.kind === 'folder')) await deleteVaultFolder(folder.id);
        announce(
          intl.formatMessage(
            { id: 'vault.actions.deleted', defaultMessage: '{count, plural, =1 {Deleted “{name}”.} other {Deleted # items.}}' },
            { count: items.length, name: items[0]?.name ?? '' },
          ),
        );
      } catch (error) {
        announce(error instanceof Error ? error.message : intl.formatMessage({ id: 'vault.actions.deleteFailed', defaultMessage: 'Deleting failed.' }));
        throw error;
      } finally {
        await refresh();
      }
    }

    return { errors, createFolder, rename, move, remove };
  }, [announce, errors, intl, master, nameTaken, queryClient, refresh, setError, vault]);
}
