import type { ListedCollectionFile } from '../../../../../contract/collections';
import { ReviewThread } from '../../../../components/review-thread';
import { useIntl } from '../../../../lib/intl';
import { useFileComments, usePostComment, useSetReview } from '../../api/review';

/** A file's review as the workspace sees it: the thread with its guests, and the decision, which a member may set too. */
export function OwnerReview({ collectionId, file, onClose }: { collectionId: string; file: ListedCollectionFile; onClose: () => void }) {
  const intl = useIntl();
  const comments = useFileComments(collectionId, file.id);
  const post = usePostComment(collectionId, file.id);
  const decide = useSetReview(collectionId, file.id);
  return (
    <ReviewThread
      fileName={file.name}
      comments={comments.data}
      loadError={comments.error}
      state={file.review?.state ?? null}
      decidedBy={
        file.review
          ? (file.review.by.email ?? (file.review.by.kind === 'key' ? intl.formatMessage({ id: 'collections.review.byApiKey', defaultMessage: 'an API key' }) : null))
          : null
      }
      onPost={(body) => post.mutateAsync(body)}
      onDecide={(state) => decide.mutateAsync(state)}
      onClose={onClose}
    />
  );
}
