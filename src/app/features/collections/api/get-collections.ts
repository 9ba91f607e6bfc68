import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { CollectionSummary } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionKeys } from './query-keys';

export async function getCollections(signal?: AbortSignal): Promise<CollectionSummary[]> {
  return (await v1Fetch<{ collections: CollectionSummary[] }>('/collections', { signal })).collections;
}

/** Every collection of the workspace, most recently updated first (the API gives them all at once). */
export function collectionsQueryOptions() {
  return queryOptions({ queryKey: collectionKeys.list, queryFn: ({ signal }) => getCollections(signal) });
}

export function useCollections() {
  return useSuspenseQuery(collectionsQueryOptions());
}
