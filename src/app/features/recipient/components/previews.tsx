import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Glyph } from '../../../components/glyphs';
import { Button } from '../../../components/button';
import { useIntl } from '../../../lib/intl';
import { fileKind, previewKind } from '../utils/file-kind';
import { ThumbnailImage } from './thumbnail-image';
import { FileIcon } from './file-icon';
import { PreviewBody } from './preview-body';

/** How many previews load at once, not lazily: the first rows of the grid (the server preloads as many). */
export const EAGER_PREVIEWS = 6;

/**
 * Previews on the recipient page: a grid of thumbnails (made by the server, at most 480 px, or
 * decrypted in this browser for an end-to-end encrypted transfer) and of the files the page can play
 * or show (video, audio, PDF, text: with `sourceOf`, the link to a file's bytes), each opening the
 * lightbox, where `action` is what the visitor can do with the file shown (download it).
 */
export function PreviewGrid<T extends Previewable>({ files, action, sourceOf }: { files: T[]; action: (file: T) => ReactNode; sourceOf?: (file: T) => Promise<string> }) {
  const intl = useIntl();
  const previews = files.filter((f) => previewKind(f, sourceOf !== undefined) !== null);
  const [open, setOpen] = useState<number | null>(null);
  if (previews.length === 0) return null;

  return (
    <section aria-labelledby="previews-title">
      <h2 id="previews-title" className="px-1 text-lg font-semibold text-zinc-900 dark:text-zinc-50">
        {intl.formatMessage({ id: 'preview.title', defaultMessage: 'Previews' })}
      </h2>
      <ul className="mt-3 grid grid-cols-3 gap-2 sm:grid-cols-4 md:grid-cols-5">
        {previews.map((file, index) => (
          <li key={file.id}>
            <button
              type="button"
              onClick={() => setOpen(index)}
              aria-label={intl.formatMessage({ id: 'preview.open', defaultMessage: 'Open the preview of {name}' }, { name: file.name })}
              className="block aspect-square w-full overflow-hidden rounded-lg border border-zinc-200 bg-zinc-100 hover:opacity-90 dark:border-zinc-800 dark:bg-zinc-800"
            >
              {file.thumbnailUrl ? (
                // The first rows are on screen at once (and preloaded by the page's HTML): not lazy.
                <ThumbnailImage file={file} alt={file.name} loading={index < EAGER_PREVIEWS ? 'eager' : 'lazy'} />
              ) : (
                <span className="flex size-full flex-col items-center justify-center gap-2 p-2 text-center">
                  <FileIcon kind={fileKind(file.mimeType, file.name)} />
                  <span className="line-clamp-2 text-xs break-all text-zinc-700 dark:text-zinc-300">{file.name}</span>
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
      {open !== null ? <Lightbox files={previews} index={open} onIndex={setOpen} onClose={() => setOpen(null)} action={action} sourceOf={sourceOf} /> : null}
    </section>
  );
}

/** What the lightbox shows of a file: its name, its image preview, and what it is (to play or show it). */
export interface Previewable {
  id: string;
  name: string;
  mimeType: string;
  sizeBytes: number;
  thumbnailUrl: string | null;
}

/**
 * One file at a time, large: an image's preview (the server's, at most 480 px, or an encrypted
 * transfer's decrypted thumbnail, at most 256 px), never the uploaded bytes; with `sourceOf`, a player
 * for video and audio, the PDF viewer, or the start of a text file, all read from the file's own link.
 * A native modal <dialog>: focus stays inside it, Esc closes it and focus goes back to whatever opened
 * it; the arrow keys, the buttons and a swipe move between `files`. `action` is what the visitor can
 * do with the file shown (download it).
 */
export function Lightbox<T extends Previewable>({
  files,
  index,
  onIndex,
  onClose,
  action,
  sourceOf,
}: {
  files: T[];
  index: number;
  onIndex: (index: number) => void;
  onClose: () => void;
  action?: (file: T) => ReactNode;
  sourceOf?: (file: T) => Promise<string>;
}) {
  const intl = useIntl();
  const dialog = useRef<HTMLDialogElement>(null);
  // Read while rendering, before the close button takes focus: the control that opened the lightbox.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  const file = files[Math.min(index, files.length - 1)]!;
  const last = files.length - 1;
  const kind = previewKind(file, sourceOf !== undefined);
  // By the file alone: a page passes a new `sourceOf` on every render, and a player must not start over for it.
  const latestSourceOf = useRef(sourceOf);
  latestSourceOf.current = sourceOf;
  const source = useCallback(() => latestSourceOf.current?.(file) ?? Promise.reject(new Error('no link')), [file]);
  const swipeFrom = useRef<number | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (typeof element.showModal === 'function') element.showModal();
    else element.setAttribute('open', '');
    return () => {
      if (element.open) element.close();
      // Back to the opener once the dialog is gone (while it is open, the page behind it cannot take focus).
      if (opener?.isConnected) opener.focus();
    };
  }, [opener]);

  // On the whole document while open: a button that just became disabled (first or last image) drops focus to the body.
  useEffect(() => {
    function onKeyDown(event: globalThis.KeyboardEvent) {
      if (event.key === 'Escape') {
        event.preventDefault();
        onClose();
      } else if (isPlayerKey(event)) {
        // The arrow keys of a player (seeking) or of a scrolled text are theirs.
      } else if (event.key === forwardKey() && index < last) onIndex(index + 1);
      else if (event.key === backwardKey() && index > 0) onIndex(index - 1);
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [index, last, onClose, onIndex]);

  return (
    <dialog
      ref={dialog}
      aria-label={intl.formatMessage({ id: 'preview.dialog', defaultMessage: 'Preview of {name}' }, { name: file.name })}
      onCancel={(event) => {
        // Esc: closed by React state, so focus goes back to the opener.
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === dialog.current) onClose();
      }}
      // A horizontal swipe on a phone moves to the next or previous file.
      onPointerDown={(event) => {
        swipeFrom.current = event.pointerType === 'touch' ? event.clientX : null;
      }}
      onPointerUp={(event) => {
        const from = swipeFrom.current;
        swipeFrom.current = null;
        if (from === null) return;
        // Reading right to left, the next file lies to the left: a swipe to the right brings it.
        const moved = (event.clientX - from) * (rightToLeft() ? -1 : 1);
        if (moved < -60 && index < last) onIndex(index + 1);
        else if (moved > 60 && index > 0) onIndex(index - 1);
      }}
      className="m-auto w-[min(48rem,calc(100vw-2rem))] rounded-xl border border-zinc-200 bg-white p-4 text-zinc-900 shadow-xl backdrop:bg-black/70 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <div className="flex items-start justify-between gap-3">
        <p className="min-w-0 font-medium break-all">{file.name}</p>
        {/* Focus starts inside, so the arrow keys work at once (browsers do this for showModal; not every environment does). */}
        <Button
          variant="ghost"
          onClick={onClose}
          className="min-h-11 min-w-11 shrink-0"
          aria-label={intl.formatMessage({ id: 'preview.close', defaultMessage: 'Close the preview' })}
          autoFocus
        >
          <Glyph sign="close" />
        </Button>
      </div>
      {kind === 'image' ? (
        <img src={file.thumbnailUrl!} alt={file.name} className="mx-auto mt-3 max-h-[60vh] w-auto max-w-full rounded-md object-contain" />
      ) : kind ? (
        <PreviewBody key={file.id} kind={kind} name={file.name} sizeBytes={file.sizeBytes} source={source} poster={file.thumbnailUrl} />
      ) : null}
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Button
            variant="secondary"
            disabled={index === 0}
            onClick={() => onIndex(index - 1)}
            aria-label={intl.formatMessage({ id: 'preview.previous', defaultMessage: 'Previous file' })}
            className="min-h-11 min-w-11"
          >
            <Glyph sign="previous" />
          </Button>
          <span className="text-sm text-zinc-600 tabular-nums dark:text-zinc-400">
            {intl.formatMessage({ id: 'preview.position', defaultMessage: '{index, number} of {count, number}' }, { index: index + 1, count: files.length })}
          </span>
          <Button
            variant="secondary"
            disabled={index === last}
            onClick={() => onIndex(index + 1)}
            aria-label={intl.formatMessage({ id: 'preview.next', defaultMessage: 'Next file' })}
            className="min-h-11 min-w-11"
          >
            <Glyph sign="next" />
          </Button>
        </div>
        {action?.(file)}
      </div>
    </dialog>
  );
}

/** A key pressed in a player or in a scrolled preview: its own (seeking, scrolling), not the lightbox's. */
function isPlayerKey(event: globalThis.KeyboardEvent): boolean {
  const target = event.target;
  return target instanceof HTMLMediaElement || (target instanceof HTMLElement && target.closest('pre, [role="region"], canvas') !== null);
}

/** The page reads right to left (Arabic): "next" lies to the left. */
const rightToLeft = () => typeof document !== 'undefined' && document.documentElement.dir === 'rtl';
const forwardKey = () => (rightToLeft() ? 'ArrowLeft' : 'ArrowRight');
const backwardKey = () => (rightToLeft() ? 'ArrowRight' : 'ArrowLeft');
