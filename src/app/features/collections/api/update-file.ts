import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CollectionFile, ListedCollectionFile } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionChangesKey, settleCollectionChange } from './collection-changes';
import { collectionKeys } from './query-keys';

export interface FileChange {
  fileId: string;
  name?: string;
  /** null: the top level. */
  folderId?: string | null;
}

/** Renames and/or moves one file. */
export async function updateFile(id: string, { fileId, ...change }: FileChange): Promise<CollectionFile> {
  const path = `/collections/${encodeURIComponent(id)}/files/${encodeURIComponent(fileId)}`;
  return (await v1Fetch<{ file: CollectionFile }>(path, { method: 'PATCH', json: change })).file;
}

const withChange = (file: ListedCollectionFile, { name, folderId }: Omit<FileChange, 'fileId'>): ListedCollectionFile => ({
  ...file,
  ...(name !== undefined ? { name } : {}),
  ...(folderId !== undefined ? { folderId } : {}),
});

/** Optimistic: the file changes at once; a refusal changes it back, and the caller shows the API's message next to it. */
export function useUpdateFile(id: string) {
  const queryClient = useQueryClient();
  const key = collectionKeys.files(id);
  return useMutation({
    mutationKey: collectionChangesKey(id),
    mutationFn: (change: FileChange) => updateFile(id, change),
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<ListedCollectionFile[]>(key)?.find((f) => f.id === change.fileId);
      queryClient.setQueryData<ListedCollectionFile[]>(key, (files) => files?.map((f) => (f.id === change.fileId ? withChange(f, change) : f)));
      return { before };
    },
    onError: (_error, change, context) => {
      const before = context?.before;
      if (!before) return;
      const undo = { ...(change.name !== undefined ? { name: before.name } : {}), ...(change.folderId !== undefined ? { folderId: before.folderId } : {}) };
      queryClient.setQueryData<ListedCollectionFile[]>(key, (files) => files?.map((f) => (f.id === change.fileId ? withChange(f, undo) : f)));
    },
    // The server's answer has no preview URL: the listing keeps the one it has.
    onSuccess: (file) =>
      queryClient.setQueryData<ListedCollectionFile[]>(key, (files) => files?.map((f) => (f.id === file.id ? { ...file, thumbnailUrl: f.thumbnailUrl } : f))),
    onSettled: () => settleCollectionChange(queryClient, id),
  });
}
