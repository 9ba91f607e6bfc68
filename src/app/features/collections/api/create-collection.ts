import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Collection, CreateCollectionRequestSchema } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionKeys } from './query-keys';

export type CreateCollectionInput = z.input<typeof CreateCollectionRequestSchema>;

export async function createCollection(input: CreateCollectionInput): Promise<Collection> {
  return (await v1Fetch<{ collection: Collection }>('/collections', { method: 'POST', json: input })).collection;
}

/** The new collection is cached under its id, so its page opens without waiting. */
export function useCreateCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCollection,
    onSuccess: (collection) => {
      queryClient.setQueryData(collectionKeys.detail(collection.id), collection);
      return queryClient.invalidateQueries({ queryKey: collectionKeys.list });
    },
  });
}
