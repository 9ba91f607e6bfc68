import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Submission } from '../../../../contract/requests';
import { v1Fetch } from '../../../lib/v1-client';
import { requestKeys } from './query-keys';

/**
 * What the owner decides for a submission its uploader did not send: publish it as it is (its files
 * become the collection's, seen by visitors) or discard it (files and bytes deleted). Either way the
 * request's submissions and counts are read again.
 */
export async function publishSubmission(requestId: string, submissionId: string): Promise<Submission> {
  const path = `/requests/${encodeURIComponent(requestId)}/submissions/${encodeURIComponent(submissionId)}/publish`;
  return (await v1Fetch<{ submission: Submission }>(path, { method: 'POST' })).submission;
}

export async function discardSubmission(requestId: string, submissionId: string): Promise<void> {
  await v1Fetch(`/requests/${encodeURIComponent(requestId)}/submissions/${encodeURIComponent(submissionId)}`, { method: 'DELETE' });
}

function useSubmissionDecision<T>(requestId: string, decide: () => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decide,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: requestKeys.submissions(requestId) }),
        queryClient.invalidateQueries({ queryKey: requestKeys.detail(requestId) }),
        queryClient.invalidateQueries({ queryKey: requestKeys.list }),
      ]),
  });
}

export const usePublishSubmission = (requestId: string, submissionId: string) => useSubmissionDecision(requestId, () => publishSubmission(requestId, submissionId));
export const useDiscardSubmission = (requestId: string, submissionId: string) => useSubmissionDecision(requestId, () => discardSubmission(requestId, submissionId));
