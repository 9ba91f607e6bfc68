import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { Session } from '../../../../contract/dashboard';
import type { Folder } from '../../../../contract/collections';
import { sessionQueryKey, useSession } from '../../auth';
import { collectionsQueryOptions, foldersQueryOptions } from '../../collections';

/**
 * Where requests send their files, by name, read from the collections API (the same cache as the
 * collections pages). Only on a paid plan: a free workspace's collections answer `402`, and its
 * requests are shown without their collections' names rather than not at all.
 */
export function useCollectionTitles(): ReadonlyMap<string, string> | undefined {
  const paid = useSession().workspace.plan === 'paid';
  const { data } = useQuery({ ...collectionsQueryOptions(), enabled: paid, select: (list) => new Map(list.map((c) => [c.id, c.title])) });
  return data;
}

/** For a route's loader: starts reading the collections' names with the page, on a paid plan (the session is cached by then). */
export function prefetchCollectionTitles(queryClient: QueryClient): void {
  if (queryClient.getQueryData<Session | null>(sessionQueryKey)?.workspace.plan === 'paid') void queryClient.prefetchQuery(collectionsQueryOptions());
}

/** The folder a request's submissions go under, or undefined while unknown (loading, or on the free plan). */
export function useFolder(collectionId: string | null, folderId: string | null): Folder | undefined {
  const paid = useSession().workspace.plan === 'paid';
  const { data } = useQuery({
    ...foldersQueryOptions(collectionId ?? ''),
    enabled: paid && collectionId !== null && folderId !== null,
    select: (folders) => folders.find((f) => f.id === folderId),
  });
  return data;
}
