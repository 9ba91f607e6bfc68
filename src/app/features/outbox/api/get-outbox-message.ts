import { queryOptions, useQuery } from '@tanstack/react-query';
import { errorFromResponse } from '../../../lib/api-error';
import { send } from '../../../lib/http';
import { userDataRoot } from '../../../lib/query-keys';

export function outboxMessageQueryKey(id: string) {
  return [...userDataRoot, 'outbox', 'message', id] as const;
}

/** The raw RFC 5322 message as the server kept it. Untrusted: show it only as text. */
export async function getOutboxMessage(id: string, signal?: AbortSignal): Promise<string> {
  const response = await send(`/api/dashboard/mail/${encodeURIComponent(id)}`, { headers: { Accept: 'text/plain' }, signal });
  if (!response.ok) throw await errorFromResponse(response);
  return response.text();
}

/** A kept message never changes: once fetched, it is not fetched again. */
export function outboxMessageQueryOptions(id: string) {
  return queryOptions({
    queryKey: outboxMessageQueryKey(id),
    queryFn: ({ signal }) => getOutboxMessage(id, signal),
    staleTime: Infinity,
  });
}

/** Not suspending: the list stays in place while a message loads. */
export function useOutboxMessage(id: string) {
  return useQuery(outboxMessageQueryOptions(id));
}
