import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { Collection } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionKeys } from './query-keys';

export async function getCollection(id: string, signal?: AbortSignal): Promise<Collection> {
  return (await v1Fetch<{ collection: Collection }>(`/collections/${encodeURIComponent(id)}`, { signal })).collection;
}

export function collectionQueryOptions(id: string) {
  return queryOptions({ queryKey: collectionKeys.detail(id), queryFn: ({ signal }) => getCollection(id, signal) });
}

export function useCollection(id: string) {
  return useSuspenseQuery(collectionQueryOptions(id));
}
