import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { defineMessages, type MessageDescriptor } from 'react-intl';
import { buttonClass } from '../../../components/button';
import { isApiRequestError } from '../../../lib/api-error';
import { useIntl } from '../../../lib/intl';

/** The API's answer to every collections request of a workspace without a paid plan. */
export function isUpgradeRequired(error: unknown): boolean {
  return isApiRequestError(error) && error.code === 'upgrade_required';
}

/**
 * Words of a paid feature's notice: a message (`defineMessages`, formatted when the notice renders in the page's
 * language), or text already in that language.
 */
export type PaidFeatureText = MessageDescriptor | string;

/** What a paid-plan feature is, for the notice a free workspace sees in its place. */
export interface PaidFeature {
  /** "Collections come with the paid plan". */
  heading: PaidFeatureText;
  intro: PaidFeatureText;
  /** Three [title, text] pairs. */
  points: readonly (readonly [PaidFeatureText, PaidFeatureText])[];
  /** What happens to what was made with it when a paid plan ends. */
  afterLapse: PaidFeatureText;
}

const collectionsMessages = defineMessages({
  heading: { id: 'collections.paid.heading', defaultMessage: 'Collections come with the paid plan' },
  intro: {
    id: 'collections.paid.intro',
    defaultMessage: 'A collection is a lasting, shared set of files: unlike a transfer it does not expire, and you keep adding to it.',
  },
  foldersTitle: { id: 'collections.paid.foldersTitle', defaultMessage: 'Folders, kept together' },
  foldersText: { id: 'collections.paid.foldersText', defaultMessage: 'Named sets of files in folders: drop whole folder trees in and they keep their shape.' },
  sharedTitle: { id: 'collections.paid.sharedTitle', defaultMessage: 'Shared your way' },
  sharedText: {
    id: 'collections.paid.sharedText',
    defaultMessage: 'Anyone with the secret link, anyone with the link and a password, or only guests you invite by email.',
  },
  browseTitle: { id: 'collections.paid.browseTitle', defaultMessage: 'Easy to browse' },
  browseText: { id: 'collections.paid.browseText', defaultMessage: 'Image previews, a file or a folder at a time or everything as one zip, on any device.' },
  afterLapse: {
    id: 'collections.paid.afterLapse',
    defaultMessage: 'If a paid plan has ended, its collections are kept and their links keep working; they can be changed again once the plan is renewed.',
  },
});

export const collectionsFeature: PaidFeature = {
  heading: collectionsMessages.heading,
  intro: collectionsMessages.intro,
  points: [
    [collectionsMessages.foldersTitle, collectionsMessages.foldersText],
    [collectionsMessages.sharedTitle, collectionsMessages.sharedText],
    [collectionsMessages.browseTitle, collectionsMessages.browseText],
  ],
  afterLapse: collectionsMessages.afterLapse,
};

/**
 * What a free workspace sees instead of a paid feature (collections by default): what it is and
 * what it takes to get it. Not an error: nothing went wrong.
 */
export function UpgradeNotice({ isOperator, feature = collectionsFeature }: { isOperator: boolean; feature?: PaidFeature }) {
  const intl = useIntl();
  const headingId = useId();
  const say = (text: PaidFeatureText) => (typeof text === 'string' ? text : intl.formatMessage(text));
  return (
    <section
      aria-labelledby={headingId}
      className="overflow-hidden rounded-xl border border-indigo-200 bg-gradient-to-br from-indigo-50 via-white to-sky-50 p-6 sm:p-8 dark:border-indigo-900 dark:from-indigo-950/60 dark:via-zinc-900 dark:to-sky-950/40"
    >
      <p className="text-sm font-semibold text-indigo-700 dark:text-indigo-300">
        {intl.formatMessage({ id: 'collections.paid.label', defaultMessage: 'Paid plan' })}
      </p>
      <h2 id={headingId} className="mt-1 text-xl font-semibold tracking-tight">
        {say(feature.heading)}
      </h2>
      <p className="mt-2 max-w-2xl text-sm text-zinc-700 dark:text-zinc-300">{say(feature.intro)}</p>
      <ul className="mt-6 grid gap-4 sm:grid-cols-3">
        {feature.points.map(([title, text], index) => (
          // The points are a fixed list: their place is their key.
          <li key={index} className="rounded-lg bg-white/70 p-4 ring-1 ring-zinc-200 dark:bg-zinc-900/70 dark:ring-zinc-800">
            <p className="text-sm font-medium">{say(title)}</p>
            <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{say(text)}</p>
          </li>
        ))}
      </ul>
      <p className="mt-6 max-w-2xl text-sm text-zinc-700 dark:text-zinc-300">
        {isOperator
          ? intl.formatMessage(
              {
                id: 'collections.paid.freePlanOperator',
                defaultMessage: 'This workspace is on the free plan. As the server’s operator, you can change its plan on the Admin page. {afterLapse}',
              },
              { afterLapse: say(feature.afterLapse) },
            )
          : intl.formatMessage(
              { id: 'collections.paid.freePlan', defaultMessage: 'This workspace is on the free plan. The server’s operator can move it to a paid plan. {afterLapse}' },
              { afterLapse: say(feature.afterLapse) },
            )}
      </p>
      {isOperator ? (
        <div className="mt-6">
          <Link to="/admin" className={buttonClass('primary')}>
            {intl.formatMessage({ id: 'collections.paid.openAdmin', defaultMessage: 'Open the Admin page' })}
          </Link>
        </div>
      ) : null}
    </section>
  );
}
