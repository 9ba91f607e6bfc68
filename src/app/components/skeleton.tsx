import { useIntl } from '../lib/intl';

/**
 * Placeholders in the shape of what is loading, so the page does not jump when it arrives. Each
 * is one `status` region named for what it waits for; the grey shapes are hidden from screen
 * readers, and stay still for people who ask for reduced motion.
 */

const bar = 'rounded bg-zinc-200 motion-safe:animate-pulse dark:bg-zinc-800';

function Bar({ className }: { className: string }) {
  return <div aria-hidden="true" className={`${bar} ${className}`} />;
}

/** Rows of a list: a title line and a detail line each. */
export function SkeletonList({ label, rows = 4 }: { label: string; rows?: number }) {
  return (
    <div role="status" aria-label={label} className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex items-center gap-4 p-4">
          <div className="min-w-0 flex-1 space-y-2">
            <Bar className={`h-4 ${i % 2 ? 'w-1/3' : 'w-1/2'}`} />
            <Bar className="h-3 w-1/4" />
          </div>
          <Bar className="hidden h-4 w-20 sm:block" />
          <Bar className="hidden h-4 w-24 md:block" />
        </div>
      ))}
    </div>
  );
}

/** A page: its heading, a line of text, and a list. */
export function SkeletonPage({ label }: { label?: string }) {
  const intl = useIntl();
  return (
    <div role="status" aria-label={label ?? intl.formatMessage({ id: 'common.skeleton.loadingPage', defaultMessage: 'Loading page' })} className="py-2">
      <Bar className="h-7 w-48" />
      <Bar className="mt-3 h-4 w-80 max-w-full" />
      <div className="mt-8 space-y-3">
        {Array.from({ length: 4 }, (_, i) => (
          <Bar key={i} className="h-16 w-full" />
        ))}
      </div>
    </div>
  );
}

/** A card with a heading, a few facts and a button, as on the recipient page. */
export function SkeletonCard({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="rounded-xl border border-zinc-200 bg-white p-5 shadow-xs sm:p-8 dark:border-zinc-800 dark:bg-zinc-900">
      <Bar className="h-4 w-40" />
      <Bar className="mt-3 h-8 w-2/3" />
      <div className="mt-6 grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Bar className="h-10 w-full" />
        <Bar className="h-10 w-full" />
      </div>
      <Bar className="mt-6 h-12 w-full sm:w-48" />
    </div>
  );
}
