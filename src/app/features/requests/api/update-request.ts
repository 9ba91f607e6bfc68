import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { UpdateUploadRequestRequestSchema, UploadRequest } from '../../../../contract/requests';
import { v1Fetch } from '../../../lib/v1-client';
import { requestKeys } from './query-keys';

export type UpdateUploadRequestInput = z.input<typeof UpdateUploadRequestRequestSchema>;

/**
 * Changes only the fields given; `status` moves `open` ↔ `paused` and either → `closed`. A closed
 * request takes no change (`409 conflict`), and a free workspace none at all (`402`).
 */
export async function updateUploadRequest(id: string, input: UpdateUploadRequestInput): Promise<UploadRequest> {
  return (await v1Fetch<{ request: UploadRequest }>(`/requests/${encodeURIComponent(id)}`, { method: 'PATCH', json: input })).request;
}

function changed(queryClient: QueryClient, request: UploadRequest) {
  queryClient.setQueryData(requestKeys.detail(request.id), request);
  return queryClient.invalidateQueries({ queryKey: requestKeys.list });
}

/**
 * A refusal is read again: a 409 means the request changed elsewhere (closed in another tab), and
 * the page should show it as it is now.
 */
function refused(queryClient: QueryClient, id: string) {
  return Promise.all([queryClient.invalidateQueries({ queryKey: requestKeys.detail(id) }), queryClient.invalidateQueries({ queryKey: requestKeys.list })]);
}

export function useUpdateUploadRequest(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateUploadRequestInput) => updateUploadRequest(id, input),
    onSuccess: (request) => changed(queryClient, request),
    onError: () => refused(queryClient, id),
  });
}

/**
 * Closing for good, on its own: it is confirmed first (ConfirmedAction), and its error shows in that
 * dialog. `onClosed` runs before the cache changes: a closed request offers no actions, so the
 * button (and its dialog) that asked are gone before a caller's own `mutate` callbacks could run.
 */
export function useCloseUploadRequest(id: string, { onClosed }: { onClosed?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => updateUploadRequest(id, { status: 'closed' }),
    onSuccess: (request) => {
      onClosed?.();
      return changed(queryClient, request);
    },
    onError: () => refused(queryClient, id),
  });
}
