import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CreateUploadRequestRequestSchema, UploadRequest } from '../../../../contract/requests';
import { v1Fetch } from '../../../lib/v1-client';
import { requestKeys } from './query-keys';

export type CreateUploadRequestInput = z.input<typeof CreateUploadRequestRequestSchema>;

/** Needs a paid plan: a free workspace gets `402 upgrade_required`. */
export async function createUploadRequest(input: CreateUploadRequestInput): Promise<UploadRequest> {
  return (await v1Fetch<{ request: UploadRequest }>('/requests', { method: 'POST', json: input })).request;
}

/** The new request is cached under its id, so its page (with the link to share) opens without waiting. */
export function useCreateUploadRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUploadRequest,
    onSuccess: (request) => {
      queryClient.setQueryData(requestKeys.detail(request.id), request);
      return queryClient.invalidateQueries({ queryKey: requestKeys.list });
    },
  });
}
