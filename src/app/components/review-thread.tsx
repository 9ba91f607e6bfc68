import { useId, useState, type FormEvent } from 'react';
import type { Comment } from '../../contract/collections';
import { Button } from './button';
import { FormError } from './form-error';
import { ModalDialog } from './modal-dialog';
import { RelativeTime } from './relative-time';
import { inputClass, labelClass } from './text-field';

export type ReviewStateName = 'approved' | 'changes_requested';

export const reviewLabels: Record<ReviewStateName, string> = { approved: 'Approved', changes_requested: 'Changes requested' };

/** A file's review decision as a small badge (text, not colour alone). */
export function ReviewBadge({ state }: { state: ReviewStateName }) {
  const tone =
    state === 'approved'
      ? 'bg-emerald-50 text-emerald-800 ring-emerald-600/30 dark:bg-emerald-950/60 dark:text-emerald-200 dark:ring-emerald-400/30'
      : 'bg-amber-50 text-amber-900 ring-amber-600/30 dark:bg-amber-950/60 dark:text-amber-200 dark:ring-amber-400/30';
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tone}`}>{reviewLabels[state]}</span>;
}

const authorName = (author: Comment['author']) => (author.kind === 'key' ? `API key “${author.name ?? author.id ?? ''}”` : (author.name ?? author.email ?? 'Someone'));

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
  const fieldId = useId();
  const [body, setBody] = useState('');
  const [posting, setPosting] = useState(false);
  const [deciding, setDeciding] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const post = async (event: FormEvent) => {
    event.preventDefault();
    if (body.trim() === '') return setError(new Error('Write something first.'));
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
    <ModalDialog title={`Review of ${fileName}`} onClose={onClose} busy={posting || deciding} size="wide">
      <div className="space-y-5">
        <section aria-label="Decision" className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            {state ? (
              <>
                <ReviewBadge state={state} /> {decidedBy ? <span className="ml-1">by {decidedBy}</span> : null}
              </>
            ) : (
              'Not reviewed yet.'
            )}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant={state === 'approved' ? 'primary' : 'secondary'} aria-pressed={state === 'approved'} disabled={deciding} onClick={() => void decide(state === 'approved' ? null : 'approved')}>
              Approve
            </Button>
            <Button
              variant={state === 'changes_requested' ? 'primary' : 'secondary'}
              aria-pressed={state === 'changes_requested'}
              disabled={deciding}
              onClick={() => void decide(state === 'changes_requested' ? null : 'changes_requested')}
            >
              Request changes
            </Button>
          </div>
        </section>

        <section aria-label="Comments">
          {loadError ? <FormError error={loadError} /> : null}
          {comments === undefined && !loadError ? <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading the comments…</p> : null}
          {comments?.length === 0 ? <p className="text-sm text-zinc-600 dark:text-zinc-400">No comments yet.</p> : null}
          {comments && comments.length > 0 ? (
            <ol aria-label={`Comments on ${fileName}`} className="max-h-[45vh] space-y-3 overflow-y-auto">
              {comments.map((comment) => (
                <li key={comment.id} className="rounded-lg border border-zinc-200 px-3 py-2 dark:border-zinc-800">
                  <p className="text-xs text-zinc-600 dark:text-zinc-400">
                    <span className="font-medium text-zinc-900 dark:text-zinc-100">{authorName(comment.author)}</span>
                    {comment.author.kind === 'guest' ? ' (guest)' : ''} · <RelativeTime iso={comment.createdAt} />
                  </p>
                  <p className="mt-1 text-sm whitespace-pre-wrap wrap-anywhere">{comment.body}</p>
                </li>
              ))}
            </ol>
          ) : null}
        </section>

        <form onSubmit={(event) => void post(event)} noValidate className="space-y-2">
          <label htmlFor={fieldId} className={labelClass}>
            Add a comment
          </label>
          <textarea id={fieldId} value={body} onChange={(event) => setBody(event.target.value)} rows={3} maxLength={5000} className={inputClass} />
          {error ? <FormError error={error} /> : null}
          <Button type="submit" disabled={posting}>
            {posting ? 'Posting…' : 'Post comment'}
          </Button>
        </form>
      </div>
    </ModalDialog>
  );
}
