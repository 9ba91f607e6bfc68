import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type Ref } from 'react';
import type { MasterKey } from '../../../../crypto';
import type { FileUploaderHandle } from '../../../components/uploader/file-uploader';
import { UploadsPanel } from '../../../components/uploader/uploads-panel';
import { useIntl } from '../../../lib/intl';
import { UploadSession } from '../../../lib/uploads/upload-session';
import { deleteVaultItems, vaultContentsQueryOptions, vaultKeys } from '../api/vault-api';
import { VaultUploads, VAULT_OWNER_ID, vaultUploadsStorageKey } from '../uploads/vault-uploads';
import type { OpenedVault } from '../utils/open-contents';
import { noteVaultActivity } from '../vault-lock';

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
  const intl = useIntl();
  const queryClient = useQueryClient();
  // The uploader reads the vault's folders when it registers files: the latest view, not the one it was made with.
  const latest = useRef(vault);
  latest.current = vault;

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

  return (
    <UploadsPanel
      ref={ref}
      session={session}
      label={intl.formatMessage({ id: 'vault.uploads.label', defaultMessage: 'Files uploading to your vault' })}
      note={intl.formatMessage({
        id: 'vault.uploads.note',
        defaultMessage: 'Files are encrypted in this browser before they leave it. Files and whole folders go into the folder you are viewing.',
      })}
      folderId={folderId}
      folders={vault.folders}
      serverFiles={vault.files}
      onDiscard={(ids) => void deleteVaultItems(ids).finally(() => void queryClient.invalidateQueries({ queryKey: vaultKeys.all }))}
      onUploaded={() => void queryClient.invalidateQueries({ queryKey: vaultKeys.all })}
      // Uploading is using the vault: the idle timer does not lock it mid-upload.
      onStateChange={(state) => {
        if (state.fileCount > 0 && !state.allUploaded) noteVaultActivity();
      }}
    />
  );
}
