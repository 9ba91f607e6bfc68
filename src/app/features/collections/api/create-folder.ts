import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Folder } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { byPath } from '../utils/folder-tree';
import { collectionChangesKey, settleCollectionChange } from './collection-changes';
import { collectionKeys } from './query-keys';

export interface NewFolder {
  name: string;
  /** null: the top level. */
  parentId: string | null;
}

/** A new, empty folder; a sibling with the same name (regardless of case) is `409` with `details.reason` `name_taken`. */
export async function createFolder(id: string, folder: NewFolder): Promise<Folder> {
  return (await v1Fetch<{ folder: Folder }>(`/collections/${encodeURIComponent(id)}/folders`, { method: 'POST', json: folder })).folder;
}

/** Not optimistic: the folder has no id until the server made it. It shows at once when it did. */
export function useCreateFolder(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: collectionChangesKey(id),
    mutationFn: (folder: NewFolder) => createFolder(id, folder),
    onSuccess: (folder) => queryClient.setQueryData<Folder[]>(collectionKeys.folders(id), (folders) => (folders ? [...folders, folder].sort(byPath) : folders)),
    onSettled: () => settleCollectionChange(queryClient, id),
  });
}
