import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Collection, UpdateCollectionRequestSchema } from '../../../../contract/collections';
import type { z } from 'zod';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionKeys } from './query-keys';

export type UpdateCollectionInput = z.input<typeof UpdateCollectionRequestSchema>;

export async function updateCollection(id: string, input: UpdateCollectionInput): Promise<Collection> {
  return (await v1Fetch<{ collection: Collection }>(`/collections/${encodeURIComponent(id)}`, { method: 'PATCH', json: input })).collection;
}

/** Changes a collection (title, description, visibility, password, cover, custom link); the list re-reads after. */
export function useUpdateCollection(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateCollectionInput) => updateCollection(id, input),
    onSuccess: (collection) => {
      queryClient.setQueryData(collectionKeys.detail(id), collection);
      return queryClient.invalidateQueries({ queryKey: collectionKeys.list });
    },
  });
}
