import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PublicCollectionFile } from '../../../../contract/public-collections';
import { ReviewThread } from '../../../components/review-thread';
import { collectionKeys, getFileComments, postFileComment, setFileReview } from '../api/public-collection-api';

/**
 * A guest's review of one file: the thread with the workspace and other guests, and their decision. Loaded only
 * when a guest opens it, so no other visitor's page carries it.
 */
export default function GuestReview({ slug, file, onClose }: { slug: string; file: PublicCollectionFile; onClose: () => void }) {
  const queryClient = useQueryClient();
  const key = [...collectionKeys.all(slug), 'comments', file.id] as const;
  const comments = useQuery({ queryKey: key, queryFn: async () => (await getFileComments(slug, file.id)).comments });
  // The files (their decision and count) and the thread read again after each change.
  const refresh = () => queryClient.invalidateQueries({ queryKey: collectionKeys.all(slug) });
  const post = useMutation({ mutationFn: (body: string) => postFileComment(slug, file.id, body), onSettled: refresh });
  const decide = useMutation({ mutationFn: (state: 'approved' | 'changes_requested' | null) => setFileReview(slug, file.id, state), onSettled: refresh });
  return (
    <ReviewThread
      fileName={file.name}
      comments={comments.data}
      loadError={comments.error}
      state={file.review?.state ?? null}
      decidedBy={file.review?.by.email ?? null}
      onPost={(body) => post.mutateAsync(body)}
      onDecide={(state) => decide.mutateAsync(state)}
      onClose={onClose}
    />
  );
}
