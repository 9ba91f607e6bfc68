/**
 * Signs that are not words, for buttons named by their `aria-label`. Decorative (hidden from screen readers); the
 * arrows turn round on a right-to-left page, where "previous" lies to the right.
 */
const signs = { close: '✕', previous: '←', next: '→', previousPage: '‹', nextPage: '›', less: '−', more: '+' } as const;
const directional = new Set<keyof typeof signs>(['previous', 'next', 'previousPage', 'nextPage']);

export function Glyph({ sign }: { sign: keyof typeof signs }) {
  return (
    <span aria-hidden="true" className={directional.has(sign) ? 'inline-block rtl:-scale-x-100' : undefined}>
      {signs[sign]}
    </span>
  );
}

/** Between two facts on one line ("3 files · 2 MB"). */
export const SEPARATOR = ' · ';

/**
 * A name inside a sentence ("{sender} sent you 3 files"): set apart in bold, isolated (`<bdi>`) so that a Latin name
 * reads right in an Arabic sentence and the reverse. `key`: it is a value of a message, among the sentence's parts.
 */
export function nameInSentence(key: string, name: string) {
  return (
    <bdi key={key} className="font-semibold break-words text-zinc-900 dark:text-zinc-100">
      {name}
    </bdi>
  );
}
