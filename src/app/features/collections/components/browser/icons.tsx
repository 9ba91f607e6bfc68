import type { ReactNode } from 'react';

/** The toolbar's glyphs, inline and decorative: every button carries its name in text. */
function Glyph({ children }: { children: ReactNode }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 20 20"
      className="size-4 shrink-0"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  );
}

export const icons = {
  send: (
    <Glyph>
      <path d="M17 3 8.5 11.5M17 3l-5 14-3.5-5.5L3 8z" />
    </Glyph>
  ),
  newFolder: (
    <Glyph>
      <path d="M2.5 5.5A1.5 1.5 0 0 1 4 4h3.5l1.75 2H16a1.5 1.5 0 0 1 1.5 1.5v7A1.5 1.5 0 0 1 16 16H4a1.5 1.5 0 0 1-1.5-1.5z" />
      <path d="M10 8.75v4.5M7.75 11h4.5" />
    </Glyph>
  ),
  rename: (
    <Glyph>
      <path d="M12.5 4.5l3 3L7 16H4v-3z" />
      <path d="M11 6l3 3" />
    </Glyph>
  ),
  move: (
    <Glyph>
      <path d="M2.5 5.5A1.5 1.5 0 0 1 4 4h3.5l1.75 2H16a1.5 1.5 0 0 1 1.5 1.5v7A1.5 1.5 0 0 1 16 16H4a1.5 1.5 0 0 1-1.5-1.5z" />
      <path d="M7 11h6M11 9l2 2-2 2" />
    </Glyph>
  ),
  delete: (
    <Glyph>
      <path d="M3.5 5.5h13M8 5.5V4h4v1.5M5 5.5l.75 10.5h8.5L15 5.5" />
    </Glyph>
  ),
  cover: (
    <Glyph>
      <rect x="2.75" y="3.75" width="14.5" height="12.5" rx="1.5" />
      <circle cx="7.25" cy="8" r="1.25" />
      <path d="m3.25 14.25 4-4 3 3 2-2 4.5 4.25" />
    </Glyph>
  ),
  download: (
    <Glyph>
      <path d="M10 3v9.5M6 9l4 4 4-4M3.5 16.5h13" />
    </Glyph>
  ),
  upload: (
    <Glyph>
      <path d="M10 13.5V4M6 7.5l4-4 4 4M3.5 16.5h13" />
    </Glyph>
  ),
  review: (
    <Glyph>
      <path d="M4 4.5h12v8H9l-3.5 3v-3H4z" />
    </Glyph>
  ),
  share: (
    <Glyph>
      <circle cx="14.5" cy="4.75" r="2" />
      <circle cx="5.5" cy="10" r="2" />
      <circle cx="14.5" cy="15.25" r="2" />
      <path d="m7.25 9 5.5-3.25M7.25 11l5.5 3.25" />
    </Glyph>
  ),
  list: (
    <Glyph>
      <path d="M7 5h10M7 10h10M7 15h10M3 5h.01M3 10h.01M3 15h.01" />
    </Glyph>
  ),
  grid: (
    <Glyph>
      <rect x="3" y="3" width="5.5" height="5.5" rx="1" />
      <rect x="11.5" y="3" width="5.5" height="5.5" rx="1" />
      <rect x="3" y="11.5" width="5.5" height="5.5" rx="1" />
      <rect x="11.5" y="11.5" width="5.5" height="5.5" rx="1" />
    </Glyph>
  ),
  ascending: (
    <Glyph>
      <path d="M6 15V5M3 8l3-3 3 3M12 6h5M12 10h3.5M12 14h2" />
    </Glyph>
  ),
  descending: (
    <Glyph>
      <path d="M6 5v10M3 12l3 3 3-3M12 6h2M12 10h3.5M12 14h5" />
    </Glyph>
  ),
};
