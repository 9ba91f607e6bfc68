import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { IntlShape } from 'react-intl';
import type { Comment } from '../../contract/collections';
import { useIntl } from '../lib/intl';
import { Button } from './button';
import { FormError } from './form-error';
import { SEPARATOR } from './glyphs';
import { ModalDialog } from './modal-dialog';
import { RelativeTime } from './relative-time';
import { inputClass, labelClass } from './text-field';

export type ReviewStateName = 'approved' | 'changes_requested';

/** A review decision's name: "Approved", "Changes requested". */
export function reviewLabel(state: ReviewStateName, intl: IntlShape): string {
  return intl.formatMessage({ id: 'review.state', defaultMessage: '{state, select, approved {Approved} other {Changes requested}}' }, { state });
}

/** A file's review decision as a small badge (text, not colour alone). */
export function ReviewBadge({ state }: { state: ReviewStateName }) {
  const intl = useIntl();
  const tone =
    state === 'approved'
      ? 'bg-emerald-50 text-emerald-800 ring-emerald-600/30 dark:bg-emerald-950/60 dark:text-emerald-200 dark:ring-emerald-400/30'
      : 'bg-amber-50 text-amber-900 ring-amber-600/30 dark:bg-amber-950/60 dark:text-amber-200 dark:ring-amber-400/30';
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tone}`}>{reviewLabel(state, intl)}</span>;
}

/** Who wrote a comment: a person's name or address, or an API key's name (each isolated, as a name read in any direction). */
function authorName(author: Comment['author'], intl: IntlShape): ReactNode {
  if (author.kind === 'key') return intl.formatMessage({ id: 'review.apiKeyAuthor', defaultMessage: 'API key “{name}”' }, { name: <bdi key="name">{author.name ?? author.id ?? ''}</bdi> });
  const name = author.name ?? author.email;
  return name ? <bdi>{name}</bdi> : intl.formatMessage({ id: 'review.someone', defaultMessage: 'Someone' });
}

/** A comment's author, in bold, and that they are a guest when they are one. */
function CommentAuthor({ author }: { author: Comment['author'] }) {
  const intl = useIntl();
  const name = (
    <span key="author" className="font-medium text-zinc-900 dark:text-zinc-100">
      {authorName(author, intl)}
    </span>
  );
  return <>{author.kind === 'guest' ? intl.formatMessage({ id: 'review.guestAuthor', defaultMessage: '{author} (guest)' }, { author: name }) : name}</>;
}

export interface ReviewThreadProps {
  fileName: string;
  comments: Comment[] | undefined;
  loadError: unknown;
  state: ReviewStateName | null;
  decidedBy: string | null;
  onPost: (body: string) => Promise<unknown>;
  onDecide: (state: ReviewStateName | null) => Promise<unknown>;
  onClose: () => void;
}

/**
 * A file's review, for a guest or the workspace: the comments threaded on it (plain text, never markup), a box to add
 * one (Enter starts a new line; only the button posts), and the decision, approved or changes requested, which the
 * latest one to decide sets for everyone.
 */
export function ReviewThread({ fileName, comments, loadError, state, decidedBy, onPost, onDecide, onClose }: ReviewThreadProps) {
  const intl = useIntl();
  const fieldId = useId();
  const [body, setBody] = useState('');
  const [posting, setPosting] = useState(false);
  const [deciding, setDeciding] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const post = async (event: FormEvent) => {
    event.preventDefault();
    if (body.trim() === '') return setError(new Error(intl.formatMessage({ id: 'review.emptyComment', defaultMessage: 'Write something first.' })));
    setPosting(true);
    setError(null);
    try {
      await onPost(body);
      setBody('');
    } catch (err) {
      setError(err);
    } finally {
      setPosting(false);
    }
  };
  const decide = async (next: ReviewStateName | null) => {
    setDeciding(true);
    setError(null);
    try {
      await onDecide(next);
    } catch (err) {
      setError(err);
    } finally {
      setDeciding(false);
    }
  };

  return (
    <ModalDialog
      title={intl.formatMessage({ id: 'review.title', defaultMessage: 'Review of {name}' }, { name: fileName })}
      onClose={onClose}
      busy={posting || deciding}
      size="wide"
    >
      <div className="space-y-5">
        <section aria-label={intl.formatMessage({ id: 'review.decision', defaultMessage: 'Decision' })} className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            {state ? (
              decidedBy ? (
                intl.formatMessage(
                  { id: 'review.decidedBy', defaultMessage: '{decision} by {name}' },
                  {
                    decision: (
                      <span key="decision" className="me-1">
                        <ReviewBadge state={state} />
                      </span>
                    ),
                    name: <bdi key="name">{decidedBy}</bdi>,
                  },
                )
              ) : (
                <ReviewBadge state={state} />
              )
            ) : (
              intl.formatMessage({ id: 'review.notReviewed', defaultMessage: 'Not reviewed yet.' })
            )}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant={state === 'approved' ? 'primary' : 'secondary'} aria-pressed={state === 'approved'} disabled={deciding} onClick={() => void decide(state === 'approved' ? null : 'approved')}>
              {intl.formatMessage({ id: 'review.approve', defaultMessage: 'Approve' })}
            </Button>
            <Button
              variant={state === 'changes_requested' ? 'primary' : 'secondary'}
              aria-pressed={state === 'changes_requested'}
              disabled={deciding}
              onClick={() => void decide(state === 'changes_requested' ? null : 'changes_requested')}
            >
              {intl.formatMessage({ id: 'review.requestChanges', defaultMessage: 'Request changes' })}
            </Button>
          </div>
        </section>

        <section aria-label={intl.formatMessage({ id: 'review.comments', defaultMessage: 'Comments' })}>
          {loadError ? <FormError error={loadError} /> : null}
          {comments === undefined && !loadError ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'review.loadingComments', defaultMessage: 'Loading the comments…' })}</p> : null}
          {comments?.length === 0 ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'review.noComments', defaultMessage: 'No comments yet.' })}</p> : null}
          {comments && comments.length > 0 ? (
            <ol aria-label={intl.formatMessage({ id: 'review.commentsOn', defaultMessage: 'Comments on {name}' }, { name: fileName })} className="max-h-[45vh] space-y-3 overflow-y-auto">
              {comments.map((comment) => (
                <li key={comment.id} className="rounded-lg border border-zinc-200 px-3 py-2 dark:border-zinc-800">
                  <p className="text-xs text-zinc-600 dark:text-zinc-400">
                    <CommentAuthor author={comment.author} />
                    {SEPARATOR}
                    <RelativeTime iso={comment.createdAt} />
                  </p>
                  <p className="mt-1 text-sm whitespace-pre-wrap wrap-anywhere">{comment.body}</p>
                </li>
              ))}
            </ol>
          ) : null}
        </section>

        <form onSubmit={(event) => void post(event)} noValidate className="space-y-2">
          <label htmlFor={fieldId} className={labelClass}>
            {intl.formatMessage({ id: 'review.addComment', defaultMessage: 'Add a comment' })}
          </label>
          <textarea id={fieldId} value={body} onChange={(event) => setBody(event.target.value)} rows={3} maxLength={5000} className={inputClass} />
          {error ? <FormError error={error} /> : null}
          <Button type="submit" disabled={posting}>
            {posting
              ? intl.formatMessage({ id: 'review.posting', defaultMessage: 'Posting…' })
              : intl.formatMessage({ id: 'review.post', defaultMessage: 'Post comment' })}
          </Button>
        </form>
      </div>
    </ModalDialog>
  );
}
