import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type Ref } from 'react';
import type { MasterKey } from '../../../../crypto';
import type { FileUploaderHandle } from '../../../components/uploader/file-uploader';
import { UploadsPanel } from '../../../components/uploader/uploads-panel';
import { UploadSession } from '../../../lib/uploads/upload-session';
import { destinationOf, folderIdOf } from '../../collections/utils/collection-uploads';
import { deleteVaultItems, vaultContentsQueryOptions, vaultKeys } from '../api/vault-api';
import { VaultUploads, VAULT_OWNER_ID, vaultUploadsStorageKey } from '../uploads/vault-uploads';
import type { OpenedVault } from '../utils/open-contents';
import { noteVaultActivity } from '../vault-lock';

/** Finished files come in bursts (a dropped folder): the list is read again at most this often. */
const REFRESH_AFTER_UPLOAD_MS = 800;

interface VaultUploadsPanelProps {
  userId: string;
  master: MasterKey;
  vault: OpenedVault;
  /** The folder being viewed: files added now go there. */
  folderId: string | null;
  ref?: Ref<FileUploaderHandle>;
}

/**
 * Uploads into the vault with the shared uploader: each file encrypted under its own key as tus reads it (so
 * uploads pause, resume after the tab was closed, and renew tokens), its name and thumbnail sealed, dropped folders
 * made as sealed folders.
 */
export function VaultUploadsPanel({ userId, master, vault, folderId, ref }: VaultUploadsPanelProps) {
  const queryClient = useQueryClient();
  // The uploader reads the vault's folders when it registers files: the latest view, not the one it was made with.
  const latest = useRef(vault);
  latest.current = vault;

  const refreshTimer = useRef<number | null>(null);
  useEffect(
    () => () => {
      // Locked (or left) with a refresh pending: the list is read now, so it does not show a finished file as uploading.
      if (refreshTimer.current === null) return;
      window.clearTimeout(refreshTimer.current);
      void queryClient.invalidateQueries({ queryKey: vaultKeys.all });
    },
    [queryClient],
  );
  const refreshSoon = () => {
    noteVaultActivity();
    if (refreshTimer.current !== null) return;
    refreshTimer.current = window.setTimeout(() => {
      refreshTimer.current = null;
      void queryClient.invalidateQueries({ queryKey: vaultKeys.all });
    }, REFRESH_AFTER_UPLOAD_MS);
  };

  const [session] = useState(() => {
    const uploads = new VaultUploads({
      master,
      folders: () => latest.current.folders,
      wrappedKeyOf: async (itemId) => (await queryClient.fetchQuery({ ...vaultContentsQueryOptions(), staleTime: 0 })).items.find((i) => i.id === itemId)?.wrappedKey ?? '',
      onChange: () => void queryClient.invalidateQueries({ queryKey: vaultKeys.all }),
    });
    const created = new UploadSession({ storageKey: vaultUploadsStorageKey(userId), ownerId: VAULT_OWNER_ID, registrar: uploads.registrar, source: uploads });
    const remembered = created.remembered();
    if (remembered?.ownerId === VAULT_OWNER_ID) created.resume(remembered);
    return created;
  });

  const folderPaths = new Map(vault.folders.map((f) => [f.id, f.path]));
  const folderPathOf = (destination: string | undefined) => {
    const folder = folderIdOf(destination);
    return folder === null ? null : (folderPaths.get(folder) ?? null);
  };

  return (
    <UploadsPanel
      ref={ref}
      session={session}
      label="Files uploading to your vault"
      note="Files are encrypted in this browser before they leave it. Files and whole folders go into the folder you are viewing."
      destination={destinationOf(folderId)}
      serverStates={new Map(vault.files.map((f) => [f.id, f.state]))}
      folderPathOf={folderPathOf}
      onDiscard={(ids) => void deleteVaultItems(ids).finally(() => void queryClient.invalidateQueries({ queryKey: vaultKeys.all }))}
      onFileUploaded={refreshSoon}
      onStateChange={(state) => {
        if (state.fileCount > 0 && !state.allUploaded) noteVaultActivity();
      }}
    />
  );
}
