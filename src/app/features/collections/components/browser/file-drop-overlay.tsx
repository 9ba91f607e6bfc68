import { useIntl } from '../../../../lib/intl';

/** Shown while files are dragged over the page: where a drop uploads them. Decorative; the upload panel says the rest. */
export function FileDropOverlay({ title, place }: { title: string; place: string }) {
  const intl = useIntl();
  return (
    <div aria-hidden="true" className="pointer-events-none fixed inset-0 z-40 flex items-center justify-center bg-indigo-600/10 p-6 dark:bg-indigo-400/10">
      <div className="rounded-xl border-2 border-dashed border-indigo-500 bg-white/95 px-8 py-6 text-center shadow-lg dark:bg-zinc-900/95">
        <p className="text-base font-semibold">{title}</p>
        <p className="mt-1 max-w-sm truncate text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({ id: 'collections.dropOverlay.into', defaultMessage: 'into “{place}”' }, { place: <bdi key="place">{place}</bdi> })}
        </p>
      </div>
    </div>
  );
}
