import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { Guest } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionKeys } from './query-keys';

export async function getGuests(collectionId: string, signal?: AbortSignal): Promise<Guest[]> {
  return (await v1Fetch<{ guests: Guest[] }>(`/collections/${encodeURIComponent(collectionId)}/guests`, { signal })).guests;
}

/** The people invited to a collection, with when each was invited and last signed in. */
export function guestsQueryOptions(collectionId: string) {
  return queryOptions({ queryKey: collectionKeys.guests(collectionId), queryFn: ({ signal }) => getGuests(collectionId, signal) });
}

export function useGuests(collectionId: string) {
  return useSuspenseQuery(guestsQueryOptions(collectionId));
}
