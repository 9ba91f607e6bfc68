import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Calls `onError` with the key and the error of every query or mutation of the client that fails,
 * for refusals that matter whichever request met them; returns the function that stops watching.
 */
export function watchRequestErrors(queryClient: QueryClient, onError: (key: QueryKey | undefined, error: unknown) => void): () => void {
  const stopQueries = queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'error') onError(event.query.queryKey, event.action.error);
  });
  const stopMutations = queryClient.getMutationCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'error') onError(event.mutation.options.mutationKey, event.action.error);
  });
  return () => {
    stopQueries();
    stopMutations();
  };
}
