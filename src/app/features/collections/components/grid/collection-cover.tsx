import { useState } from 'react';

/** Soft two-colour washes, each readable with its icon in the light and the dark theme. */
const placeholders = [
  'from-indigo-100 to-sky-100 text-indigo-500 dark:from-indigo-950/60 dark:to-sky-950/60 dark:text-indigo-300',
  'from-emerald-100 to-teal-50 text-emerald-600 dark:from-emerald-950/60 dark:to-teal-950/60 dark:text-emerald-300',
  'from-amber-100 to-rose-100 text-amber-600 dark:from-amber-950/60 dark:to-rose-950/60 dark:text-amber-300',
  'from-violet-100 to-fuchsia-100 text-violet-500 dark:from-violet-950/60 dark:to-fuchsia-950/60 dark:text-violet-300',
  'from-slate-200 to-zinc-100 text-slate-500 dark:from-slate-800/60 dark:to-zinc-900/60 dark:text-slate-300',
];

/** The same collection gets the same wash on every visit. */
function placeholderFor(id: string): string {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return placeholders[hash % placeholders.length]!;
}

/**
 * A collection's cover: its preview image, or a wash with a folder when it has none (or the signed
 * URL has run out since the list was read). Decorative: the card's title says what it is.
 */
export function CollectionCover({ collectionId, coverUrl }: { collectionId: string; coverUrl: string | null }) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const showImage = coverUrl !== null && failedUrl !== coverUrl;
  return (
    <div className="aspect-[16/10] w-full overflow-hidden bg-zinc-100 dark:bg-zinc-800">
      {showImage ? (
        <img
          src={coverUrl}
          alt=""
          loading="lazy"
          decoding="async"
          referrerPolicy="no-referrer"
          onError={() => setFailedUrl(coverUrl)}
          className="size-full object-cover transition-transform duration-300 motion-safe:group-hover:scale-[1.03]"
        />
      ) : (
        <div aria-hidden="true" className={`relative flex size-full items-center justify-center bg-gradient-to-br ${placeholderFor(collectionId)}`}>
          {/* A faint dot grid, so the wash reads as a surface rather than a flat fill. */}
          <div className="absolute inset-0 bg-[radial-gradient(currentColor_1px,transparent_1px)] [background-size:14px_14px] opacity-15" />
          <svg viewBox="0 0 24 24" className="relative size-12" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round">
            <path d="M3 7.5A1.5 1.5 0 0 1 4.5 6h4.38a1.5 1.5 0 0 1 1.06.44L11.5 8h8a1.5 1.5 0 0 1 1.5 1.5v8a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" />
            <path d="M3 10h18" />
          </svg>
        </div>
      )}
    </div>
  );
}
