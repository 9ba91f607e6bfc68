import type { ReactNode } from 'react';
import type { FileKind } from '../utils/file-kind';

/** A generic icon per kind of file, drawn inline (no previews, no external assets). Decorative. */
const tint: Record<FileKind, string> = {
  image: 'bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
  video: 'bg-sky-50 text-sky-700 dark:bg-sky-950 dark:text-sky-300',
  audio: 'bg-amber-50 text-amber-700 dark:bg-amber-950 dark:text-amber-300',
  pdf: 'bg-red-50 text-red-700 dark:bg-red-950 dark:text-red-300',
  archive: 'bg-violet-50 text-violet-700 dark:bg-violet-950 dark:text-violet-300',
  other: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
};

const page = 'M6 2.75h8.5L19.25 7.5v13a.75.75 0 0 1-.75.75h-12.5a.75.75 0 0 1-.75-.75V3.5A.75.75 0 0 1 6 2.75z M14.25 2.75V7.75h5';

function Frame({ children }: { children: ReactNode }) {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round">
      {children}
    </svg>
  );
}

function ImageGlyph() {
  return (
    <Frame>
      <rect x="3.25" y="4.25" width="17.5" height="15.5" rx="1.75" />
      <circle cx="8.75" cy="9.25" r="1.75" />
      <path d="m3.75 17.5 5-5 3.5 3.5 2.5-2.5 5.5 5.25" />
    </Frame>
  );
}

function VideoGlyph() {
  return (
    <Frame>
      <rect x="2.75" y="5.75" width="13" height="12.5" rx="1.75" />
      <path d="m15.75 10.25 5.5-3v9.5l-5.5-3z" />
    </Frame>
  );
}

function AudioGlyph() {
  return (
    <Frame>
      <path d="M9 18V5.5l11-2.25V15.5" />
      <circle cx="6.5" cy="18" r="2.5" />
      <circle cx="17.5" cy="15.5" r="2.5" />
    </Frame>
  );
}

function PdfGlyph() {
  return (
    <Frame>
      <path d={page} />
      <path d="M8.5 12.5h7M8.5 15.5h7M8.5 18.5h4" />
    </Frame>
  );
}

function ArchiveGlyph() {
  return (
    <Frame>
      <path d={page} />
      <path d="M11 5v1.5M11 8.5V10M11 12.5v1.5" />
      <rect x="9.75" y="15.5" width="2.5" height="3" rx="0.5" />
    </Frame>
  );
}

function OtherGlyph() {
  return (
    <Frame>
      <path d={page} />
    </Frame>
  );
}

const glyphs: Record<FileKind, () => ReactNode> = {
  image: ImageGlyph,
  video: VideoGlyph,
  audio: AudioGlyph,
  pdf: PdfGlyph,
  archive: ArchiveGlyph,
  other: OtherGlyph,
};

export function FileIcon({ kind }: { kind: FileKind }) {
  const Glyph = glyphs[kind];
  return (
    <span data-kind={kind} className={`inline-flex size-11 shrink-0 items-center justify-center rounded-lg ${tint[kind]}`}>
      <Glyph />
    </span>
  );
}
