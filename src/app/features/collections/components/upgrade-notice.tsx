import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { buttonClass } from '../../../components/button';
import { isApiRequestError } from '../../../lib/api-error';

/** The API's answer to every collections request of a workspace without a paid plan. */
export function isUpgradeRequired(error: unknown): boolean {
  return isApiRequestError(error) && error.code === 'upgrade_required';
}

/** What a paid-plan feature is, for the notice a free workspace sees in its place. */
export interface PaidFeature {
  /** "Collections come with the paid plan". */
  heading: string;
  intro: string;
  /** Three [title, text] pairs. */
  points: readonly (readonly [string, string])[];
  /** What happens to what was made with it when a paid plan ends. */
  afterLapse: string;
}

export const collectionsFeature: PaidFeature = {
  heading: 'Collections come with the paid plan',
  intro: 'A collection is a lasting, shared set of files: unlike a transfer it does not expire, and you keep adding to it.',
  points: [
    ['Folders, kept together', 'Named sets of files in folders: drop whole folder trees in and they keep their shape.'],
    ['Shared your way', 'Anyone with the secret link, anyone with the link and a password, or only guests you invite by email.'],
    ['Easy to browse', 'Image previews, a file or a folder at a time or everything as one zip, on any device.'],
  ],
  afterLapse: 'If a paid plan has ended, its collections are kept and their links keep working; they can be changed again once the plan is renewed.',
};

/**
 * What a free workspace sees instead of a paid feature (collections by default): what it is and
 * what it takes to get it. Not an error: nothing went wrong.
 */
export function UpgradeNotice({ isOperator, feature = collectionsFeature }: { isOperator: boolean; feature?: PaidFeature }) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="overflow-hidden rounded-xl border border-indigo-200 bg-gradient-to-br from-indigo-50 via-white to-sky-50 p-6 sm:p-8 dark:border-indigo-900 dark:from-indigo-950/60 dark:via-zinc-900 dark:to-sky-950/40"
    >
      <p className="text-sm font-semibold text-indigo-700 dark:text-indigo-300">Paid plan</p>
      <h2 id={headingId} className="mt-1 text-xl font-semibold tracking-tight">
        {feature.heading}
      </h2>
      <p className="mt-2 max-w-2xl text-sm text-zinc-700 dark:text-zinc-300">{feature.intro}</p>
      <ul className="mt-6 grid gap-4 sm:grid-cols-3">
        {feature.points.map(([title, text]) => (
          <li key={title} className="rounded-lg bg-white/70 p-4 ring-1 ring-zinc-200 dark:bg-zinc-900/70 dark:ring-zinc-800">
            <p className="text-sm font-medium">{title}</p>
            <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{text}</p>
          </li>
        ))}
      </ul>
      <p className="mt-6 max-w-2xl text-sm text-zinc-700 dark:text-zinc-300">
        This workspace is on the free plan.{' '}
        {isOperator ? 'As the server’s operator, you can change its plan on the Admin page.' : 'The server’s operator can move it to a paid plan.'}{' '}
        {feature.afterLapse}
      </p>
      {isOperator ? (
        <div className="mt-6">
          <Link to="/admin" className={buttonClass('primary')}>
            Open the Admin page
          </Link>
        </div>
      ) : null}
    </section>
  );
}
