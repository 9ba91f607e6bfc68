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
