import Uppy, { type UppyFile } from '@uppy/core';
import Dashboard from '@uppy/dashboard';
import Tus, { type TusDetailedError } from '@uppy/tus';
import { useEffect, useRef } from 'react';
import { currentTheme, subscribeToTheme } from '../../../lib/theme';
import { UPLOAD_TOKEN_HEADER } from '../api/transfer-drafts';
import type { DraftFileInput, DraftSession } from '../draft-session';
import { RETRY_DELAYS, shouldRetryUpload } from '../upload-retry';
import './uppy-styles';

type Meta = { relativePath?: string | null; name?: string; type?: string };
type Body = Record<string, never>;
type File = UppyFile<Meta, Body>;

export interface UploaderState {
  /** Uppy's ids of the files it holds. */
  keys: string[];
  fileCount: number;
  uploadedCount: number;
  /** Bytes of all held files together, and how many of them are up. */
  totalBytes: number;
  uploadedBytes: number;
  /** Every unfinished file is paused. */
  paused: boolean;
  /** Every file uploaded, none failed. */
  allUploaded: boolean;
}

const MIME_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;

/** Uppy's file as the draft registers it: a dropped folder's relative path gives `path` (folders) and `name`. */
export function toDraftFile(file: File): DraftFileInput {
  const relative = file.meta.relativePath;
  const segments = relative ? relative.split('/').filter(Boolean) : [];
  const name = segments.length > 0 ? segments[segments.length - 1]! : (file.name ?? 'file');
  const path = segments.length > 1 ? segments.slice(0, -1).join('/') : null;
  const mimeType = file.type && MIME_PATTERN.test(file.type) ? file.type : undefined;
  return { key: file.id, name, size: file.size ?? 0, mimeType, path };
}

/** Forgets tus's resume record of a file, so a file added again after removal starts a new upload. */
function forgetFingerprint(key: string) {
  try {
    const prefix = `tus::tus-${key}-`;
    for (let i = window.localStorage.length - 1; i >= 0; i -= 1) {
      const storageKey = window.localStorage.key(i);
      if (storageKey?.startsWith(prefix)) window.localStorage.removeItem(storageKey);
    }
  } catch {
    // Storage unavailable: nothing was remembered either.
  }
}

function summarize(uppy: Uppy<Meta, Body>): UploaderState {
  const files = uppy.getFiles();
  const unfinished = files.filter((f) => !f.progress.uploadComplete);
  return {
    keys: files.map((f) => f.id),
    fileCount: files.length,
    uploadedCount: files.filter((f) => f.progress.uploadComplete && !f.error).length,
    totalBytes: files.reduce((sum, f) => sum + (f.size ?? 0), 0),
    uploadedBytes: files.reduce((sum, f) => sum + (f.progress.uploadComplete ? (f.size ?? 0) : Number(f.progress.bytesUploaded) || 0), 0),
    paused: unfinished.length > 0 && unfinished.every((f) => f.isPaused),
    allUploaded: files.length > 0 && files.every((f) => f.progress.uploadComplete && !f.error),
  };
}

/**
 * Uppy's Dashboard, inline: drop files or folders, watch progress, pause, resume, cancel, retry.
 * Uploads start as soon as files are added; every tus request carries the file's current upload
 * token from the draft session, which renews it when it is about to expire or was refused.
 */
export function FileUploader({
  session,
  maxTotalBytes,
  onChange,
  onRegistrationError,
}: {
  session: DraftSession;
  maxTotalBytes: number;
  onChange: (state: UploaderState) => void;
  onRegistrationError: (error: unknown) => void;
}) {
  const target = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onChange, onRegistrationError });
  useEffect(() => {
    callbacks.current = { onChange, onRegistrationError };
  });

  useEffect(() => {
    const element = target.current;
    if (!element) return;
    let disposing = false;
    let last = '';

    const uppy = new Uppy<Meta, Body>({ autoProceed: true, restrictions: { maxTotalFileSize: maxTotalBytes } });
    uppy.use(Dashboard, {
      inline: true,
      target: element,
      width: '100%',
      height: 420,
      // The app's theme (the header toggle), not the system's: kept in step below.
      theme: currentTheme(),
      fileManagerSelectionType: 'both',
      // Sizes, counts and a smoothed time left are shown by the page (UploadStatus): Uppy's estimate jumps about.
      hideProgressDetails: true,
      proudlyDisplayPoweredByUppy: false,
      hideUploadButton: true,
      hidePauseResumeButton: false,
      hideCancelButton: false,
      hideRetryButton: false,
      showRemoveButtonAfterComplete: true,
      // Its default would clear the uploader (and so the draft's files): sending is this page's "done".
      doneButtonHandler: null,
      note: 'Files and whole folders; uploading starts at once.',
    } as never);
    uppy.use(Tus, {
      endpoint: '/files/',
      retryDelays: RETRY_DELAYS,
      removeFingerprintOnSuccess: true,
      allowedMetaFields: ['name', 'type'],
      onBeforeRequest: async (request, file) => {
        request.setHeader(UPLOAD_TOKEN_HEADER, await session.tokenFor(file.id));
      },
    });

    const report = () => {
      const state = summarize(uppy);
      const signature = JSON.stringify(state);
      if (signature !== last) {
        last = signature;
        callbacks.current.onChange(state);
      }
    };

    uppy.on('files-added', (files) => {
      for (const file of files) {
        // Per file, because the retry decision needs to know whose token was refused.
        uppy.setFileState(file.id, {
          tus: {
            onShouldRetry: (error: TusDetailedError, _attempt: number, _options: unknown, next: (e: TusDetailedError) => boolean) =>
              shouldRetryUpload(session, file.id, error, next),
          },
        } as Partial<File>);
      }
      session.registerFiles(files.map(toDraftFile)).catch((error: unknown) => callbacks.current.onRegistrationError(error));
    });
    uppy.on('file-removed', (file) => {
      if (disposing) return;
      forgetFingerprint(file.id);
      session.removeFile(file.id).catch((error: unknown) => callbacks.current.onRegistrationError(error));
    });
    uppy.on('upload-error', (file) => {
      const failure = file ? session.failureOf(file.id) : undefined;
      if (file && failure) uppy.setFileState(file.id, { error: failure });
    });
    uppy.on('state-update', report);

    const stopFollowingTheme = subscribeToTheme(() => uppy.getPlugin('Dashboard')?.setOptions({ theme: currentTheme() } as never));
    // With one file, Uppy renders its list item without the list around it (axe: aria-required-parent).
    const giveListRole = () => {
      for (const files of element.querySelectorAll('.uppy-Dashboard-files:not([role])')) files.setAttribute('role', 'list');
    };
    const listObserver = new MutationObserver(giveListRole);
    listObserver.observe(element, { childList: true, subtree: true });

    const timer = window.setInterval(() => {
      const unfinished = uppy.getFiles().filter((f) => !f.progress.uploadComplete).map((f) => f.id);
      void session.renewExpiring(unfinished);
    }, 60_000);

    return () => {
      disposing = true;
      stopFollowingTheme();
      listObserver.disconnect();
      window.clearInterval(timer);
      uppy.destroy();
    };
  }, [session, maxTotalBytes]);

  return <div ref={target} className="min-h-[420px]" aria-label="Files to send" role="region" />;
}
