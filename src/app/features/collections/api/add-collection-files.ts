import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UploadTarget } from '../../../../contract/transfers';
import type { FileToRegister } from '../../../lib/uploads/upload-session';
import { v1Fetch } from '../../../lib/v1-client';
import type { ImportEntry, ImportToAdd } from '../../imports';
import { collectionKeys } from './query-keys';

export interface AddedCollectionFiles {
  tusEndpoint: string;
  files: UploadTarget[];
  imports: ImportEntry[];
}

/**
 * Registers files for upload, and URLs for the service to import, into `folderId` (null: the top
 * level); each file's `path` becomes folders under it, made as needed, so a dropped folder keeps
 * its tree. An import is a file in state `importing` at once, filled in the background.
 */
export function addCollectionFiles(id: string, add: { files?: FileToRegister[]; imports?: ImportToAdd[] }, folderId: string | null): Promise<AddedCollectionFiles> {
  return v1Fetch<AddedCollectionFiles>(`/collections/${encodeURIComponent(id)}/files`, { method: 'POST', json: { ...add, folderId } });
}

/** Adds one URL import: the new file is listed (importing) and counted at once, so the listing, the collection and the grid are read again. */
export function useAddCollectionImport(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ request, folderId }: { request: ImportToAdd; folderId: string | null }) => (await addCollectionFiles(id, { imports: [request] }, folderId)).imports,
    onSuccess: () =>
      Promise.all([collectionKeys.files(id), collectionKeys.detail(id), collectionKeys.list].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
