import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Comment } from '../../../../contract/collections';
import { v1Fetch } from '../../../lib/v1-client';
import { collectionKeys } from './query-keys';

const filePath = (id: string, fileId: string) => `/collections/${encodeURIComponent(id)}/files/${encodeURIComponent(fileId)}`;
const commentsKey = (id: string, fileId: string) => [...collectionKeys.files(id), 'comments', fileId] as const;

/** A file's comments, oldest first, read when its review opens. */
export function useFileComments(id: string, fileId: string) {
  return useQuery({ queryKey: commentsKey(id, fileId), queryFn: async ({ signal }) => (await v1Fetch<{ comments: Comment[] }>(`${filePath(id, fileId)}/comments`, { signal })).comments });
}

/** Comments on a file as the signed-in member; the thread and the file list (its count) read again after. */
export function usePostComment(id: string, fileId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => v1Fetch<{ comment: Comment }>(`${filePath(id, fileId)}/comments`, { method: 'POST', json: { body } }),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: commentsKey(id, fileId) }), queryClient.invalidateQueries({ queryKey: collectionKeys.files(id) })]),
  });
}

/** Approves the file, asks for changes, or clears the decision (null). */
export function useSetReview(id: string, fileId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (state: 'approved' | 'changes_requested' | null) => v1Fetch<{ review: unknown }>(`${filePath(id, fileId)}/review`, { method: 'PUT', json: { state } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: collectionKeys.files(id) }),
  });
}
