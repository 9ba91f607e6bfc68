import Uppy, { type UppyFile } from '@uppy/core';
import Dashboard from '@uppy/dashboard';
import Tus, { type TusDetailedError } from '@uppy/tus';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { Locale as UppyLocale } from '@uppy/core/utils';
import { DEFAULT_LOCALE, localeOfTag } from '../../../contract/locales';
import { useIntl } from '../../lib/intl';
import { uppyLocale } from './uppy-locale';
import { currentTheme, subscribeToTheme } from '../../lib/theme';
import { RETRY_DELAYS, shouldRetryUpload } from '../../lib/uploads/upload-retry';
import type { FileToUpload, UploadSession } from '../../lib/uploads/upload-session';
import { UPLOAD_TOKEN_HEADER } from '../../lib/uploads/upload-token';
import './uppy-styles';

type Meta = { relativePath?: string | null; name?: string; type?: string; destination?: string };
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
  /** Files the server refused to register (a rule of the owner, say): they never upload, and nothing of them is on the server. */
  refusedCount: number;
}

export const noUploads: UploaderState = {
  keys: [],
  fileCount: 0,
  uploadedCount: 0,
  totalBytes: 0,
  uploadedBytes: 0,
  paused: false,
  allUploaded: false,
  refusedCount: 0,
};

/** What a page can do with its uploader besides its own drop area and pickers: add files it got elsewhere (a drop anywhere on the page). */
export interface FileUploaderHandle {
  /** Files picked or dropped; a dropped folder's files carry `relativePath` (Uppy's getDroppedFiles) or `webkitRelativePath` (a folder picker). */
  addFiles(files: globalThis.File[]): void;
}

const MIME_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;

/** Uppy's file as the server registers it: a dropped folder's relative path gives `path` (folders) and `name`. */
export function toUploadFile(file: File): FileToUpload {
  const relative = file.meta.relativePath;
  const segments = relative ? relative.split('/').filter(Boolean) : [];
  const name = segments.length > 0 ? segments[segments.length - 1]! : (file.name ?? 'file');
  const path = segments.length > 1 ? segments.slice(0, -1).join('/') : null;
  const mimeType = file.type && MIME_PATTERN.test(file.type) ? file.type : undefined;
  return { key: file.id, name, size: file.size ?? 0, mimeType, path, ...(file.meta.destination !== undefined ? { destination: file.meta.destination } : {}) };
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

function summarize(uppy: Uppy<Meta, Body>, session: UploadSession): UploaderState {
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
    refusedCount: unfinished.filter((f) => f.error && !session.has(f.id) && session.failureOf(f.id) !== undefined).length,
  };
}

export interface FileUploaderProps {
  /** Registers the files with the server and keeps their upload tokens: what makes a transfer's uploader differ from a collection's. */
  session: UploadSession;
  /** The accessible name of the uploader's region. */
  label: string;
  /** Checked as files are added (Uppy's restrictions), before anything is registered; the server checks again. */
  maxTotalBytes?: number;
  /**
   * How many files the list may hold. Files added past it are left out one by one, not the whole
   * batch: of six chosen where five fit, the first five are added and a message names the sixth.
   */
  maxFiles?: number;
  /** MIME types or `type/*`; empty or absent for any. */
  allowedTypes?: readonly string[];
  /** Those types in words ("images or PDF documents"), for the message when a file of another type is added. */
  allowedTypesLabel?: string;
  height?: number;
  note?: string;
  /**
   * Where files added from now on go (a collection's folder). It becomes part of each file's
   * identity, so the same file can go to two folders, and an interrupted upload resumes only into
   * the folder it started in.
   */
  destination?: string;
  /**
   * The owner keeps each file once it is uploaded (a collection): it can no longer be removed here,
   * the session stops remembering it, and "Done" clears the list. Otherwise (a draft) uploaded files
   * can still be removed, which takes them out of the owner.
   */
  keepsUploadedFiles?: boolean;
  /**
   * Whether the Dashboard's "Done" (shown once everything is up) clears the list; by default it does
   * where uploaded files are kept. A page that still acts on the finished list (sends it) says false.
   */
  clearWhenDone?: boolean;
  onChange: (state: UploaderState) => void;
  onRegistrationError: (error: unknown) => void;
  /** A file's last byte arrived; `key` is Uppy's id of it, still known to the session (`fileIdOf`) during the call. */
  onFileUploaded?: (key: string) => void;
  ref?: Ref<FileUploaderHandle>;
}

/**
 * Uppy's Dashboard, inline: drop files or folders, watch progress, pause, resume, cancel, retry.
 * Uploads start as soon as files are added; every tus request carries the file's current upload
 * token from the session, which renews it when it is about to expire or was refused. tus remembers
 * each unfinished upload under the file's id, so a file added again after the tab was closed
 * continues; one the session knows is complete shows as uploaded at once.
 */
export function FileUploader({
  session,
  label,
  maxTotalBytes,
  maxFiles,
  allowedTypes,
  allowedTypesLabel,
  height = 420,
  note,
  destination,
  keepsUploadedFiles = false,
  clearWhenDone = keepsUploadedFiles,
  onChange,
  onRegistrationError,
  onFileUploaded,
  ref,
}: FileUploaderProps) {
  const intl = useIntl();
  const target = useRef<HTMLDivElement>(null);
  const uppyRef = useRef<Uppy<Meta, Body>>(null);
  const pageLocale = localeOfTag(intl.locale) ?? DEFAULT_LOCALE;
  const [uppyWords, setUppyWords] = useState<UppyLocale | null>(null);
  useEffect(() => {
    let current = true;
    void uppyLocale(pageLocale).then((words) => {
      if (current) setUppyWords(words);
    });
    return () => {
      current = false;
    };
  }, [pageLocale]);
  const shownNote = note ?? intl.formatMessage({ id: 'uploader.note', defaultMessage: 'Files and whole folders; uploading starts at once.' });
  const texts = useRef({ unnamed: '', alreadyListed: (name: string | undefined) => name ?? '', files: '' });
  texts.current = {
    unnamed: intl.formatMessage({ id: 'uploader.unnamed', defaultMessage: 'unnamed' }),
    alreadyListed: (name) =>
      name === undefined
        ? intl.formatMessage({ id: 'uploader.alreadyListedUnnamed', defaultMessage: 'This file is already in the list.' })
        : intl.formatMessage({ id: 'uploader.alreadyListed', defaultMessage: '“{name}” is already in the list.' }, { name }),
    files: intl.formatMessage({ id: 'uploader.files', defaultMessage: 'Files' }),
  };
  const latest = useRef({ onChange, onRegistrationError, onFileUploaded, destination, maxFiles });
  useEffect(() => {
    latest.current = { onChange, onRegistrationError, onFileUploaded, destination, maxFiles };
  });
  const [leftOut, setLeftOut] = useState<{ limit: number; names: string[] } | null>(null);

  useImperativeHandle(ref, () => ({
    addFiles: (files) => {
      const dashboard = uppyRef.current?.getPlugin<Dashboard<Meta, Body>>('Dashboard');
      if (dashboard && files.length > 0) dashboard.addFiles(files);
    },
  }));

  useEffect(() => {
    const element = target.current;
    if (!element) return;
    let disposing = false;
    let last = '';
    // Names of the files of the batch being added that did not fit; reported once the batch is in.
    let overLimit: string[] = [];

    /** Whether one more file fits: `files` holds the list and the files of this batch accepted so far. */
    const fits = (file: UppyFile<Meta, Body>, files: Record<string, unknown>) => {
      const limit = latest.current.maxFiles;
      if (limit === undefined || Object.keys(files).length < limit) return true;
      if (overLimit.length === 0) {
        queueMicrotask(() => {
          setLeftOut({ limit, names: overLimit });
          overLimit = [];
        });
      }
      overLimit.push(file.name ?? texts.current.unnamed);
      return false;
    };

    const uppy = new Uppy<Meta, Body>({
      autoProceed: true,
      onBeforeFileAdded: (file, files) => {
        const where = latest.current.destination;
        if (where === undefined) return !Object.hasOwn(files, file.id) && fits(file, files);
        const id = `${file.id}@${where}`;
        if (Object.hasOwn(files, id)) {
          uppy.info(texts.current.alreadyListed(file.name), 'info', 4000);
          return false;
        }
        if (!fits(file, files)) return false;
        return { ...file, id, meta: { ...file.meta, destination: where } };
      },
    });
    uppy.use(Dashboard, {
      inline: true,
      target: element,
      width: '100%',
      height,
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
      showRemoveButtonAfterComplete: !keepsUploadedFiles,
      // A draft's "done" is sending it (its default would clear the uploader, and so the draft's files);
      // a collection has its files already, so Done just clears the list.
      doneButtonHandler: clearWhenDone ? () => uppy.cancelAll() : null,
      note: shownNote,
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
    uppyRef.current = uppy;

    const report = () => {
      const state = summarize(uppy, session);
      const signature = JSON.stringify(state);
      if (signature !== last) {
        last = signature;
        latest.current.onChange(state);
      }
    };

    uppy.on('files-added', (files) => {
      // A batch that all fitted clears the message about an earlier one.
      if (overLimit.length === 0) setLeftOut(null);
      for (const file of files) {
        if (session.isUploaded(file.id)) {
          // Added again after the tab was closed, and already complete on the server: done, not uploaded
          // again. Marked started first, so that Uppy's automatic upload leaves it alone.
          uppy.emit('upload-start', [file]);
          uppy.emit('upload-success', uppy.getFile(file.id), { status: 200, body: {}, uploadURL: '', bytesUploaded: file.size ?? 0 } as never);
          continue;
        }
        // Per file, because the retry decision needs to know whose token was refused, and the session's
        // source (if any) gives each file its own reader of the bytes to upload.
        uppy.setFileState(file.id, {
          tus: {
            ...session.tusOptionsFor(toUploadFile(file)),
            onShouldRetry: (error: TusDetailedError, _attempt: number, _options: unknown, next: (e: TusDetailedError) => boolean) =>
              shouldRetryUpload(session, file.id, error, next),
          },
        } as Partial<File>);
      }
      session.registerFiles(files.map(toUploadFile)).catch((error: unknown) => latest.current.onRegistrationError(error));
    });
    uppy.on('file-removed', (file) => {
      if (disposing) return;
      forgetFingerprint(file.id);
      session.removeFile(file.id).catch((error: unknown) => latest.current.onRegistrationError(error));
    });
    uppy.on('upload-success', (file) => {
      if (!file) return;
      // Told first, while the session still knows the file (its server id), even where it forgets it next.
      latest.current.onFileUploaded?.(file.id);
      if (keepsUploadedFiles) session.forgetFile(file.id);
      else session.markUploaded(file.id);
      // Uppy recomputes its total progress at most every half second, and until it reaches 100 its
      // header reads "0 files selected" over files that are all up: settle it when the last one lands.
      if (uppy.getFiles().every((f) => f.progress.uploadComplete)) uppy.setState({ totalProgress: 100 });
    });
    uppy.on('upload-error', (file) => {
      const failure = file ? session.failureOf(file.id) : undefined;
      if (file && failure) uppy.setFileState(file.id, { error: failure });
    });
    uppy.on('state-update', report);

    const stopFollowingTheme = subscribeToTheme(() => uppy.getPlugin('Dashboard')?.setOptions({ theme: currentTheme() } as never));
    // With one file, Uppy renders its list item without the list around it (axe: aria-required-parent).
    // The list scrolls, and once its files are uploaded and kept it holds nothing focusable: it takes
    // focus itself, so a keyboard can scroll it (axe: scrollable-region-focusable).
    const giveListRole = () => {
      for (const files of element.querySelectorAll('.uppy-Dashboard-files')) {
        if (!files.hasAttribute('role')) files.setAttribute('role', 'list');
        if (!files.hasAttribute('tabindex')) files.setAttribute('tabindex', '0');
        if (!files.hasAttribute('aria-label')) files.setAttribute('aria-label', texts.current.files);
      }
    };
    const listObserver = new MutationObserver(giveListRole);
    listObserver.observe(element, { childList: true, subtree: true });

    const timer = window.setInterval(() => {
      const unfinished = uppy
        .getFiles()
        .filter((f) => !f.progress.uploadComplete)
        .map((f) => f.id);
      void session.renewExpiring(unfinished);
    }, 60_000);

    return () => {
      disposing = true;
      uppyRef.current = null;
      stopFollowingTheme();
      listObserver.disconnect();
      window.clearInterval(timer);
      uppy.destroy();
    };
  }, [session, height, shownNote, keepsUploadedFiles, clearWhenDone]);

  // Limits change without starting over: the files held stay, and the next ones added are checked against the new limits.
  const types = allowedTypes && allowedTypes.length > 0 ? allowedTypes.join(',') : null;
  useEffect(() => {
    const uppy = uppyRef.current;
    if (!uppy) return;
    uppy.setOptions({
      // maxFiles is applied file by file in onBeforeFileAdded: Uppy's own check refuses a whole batch that does not fit.
      restrictions: { maxTotalFileSize: maxTotalBytes ?? null, allowedFileTypes: types === null ? null : types.split(',') },
      // Uppy's words in the page's language, and ours for the types a request takes.
      locale: {
        ...(uppyWords ?? {}),
        strings: {
          ...uppyWords?.strings,
          ...(types !== null && allowedTypesLabel
            ? { youCanOnlyUploadFileTypes: intl.formatMessage({ id: 'uploader.onlyTypes', defaultMessage: 'Only {types} can be added here.' }, { types: allowedTypesLabel }) }
            : {}),
        },
      } as UppyLocale,
    });
  }, [session, height, note, keepsUploadedFiles, clearWhenDone, maxTotalBytes, types, allowedTypesLabel, uppyWords, intl]);

  // The space Uppy will take, held before it mounts; on a phone the empty drop zone is shorter (uppy-theme.css).
  return (
    <div>
      <div ref={target} style={{ minHeight: height }} className="max-sm:min-h-44!" aria-label={label} role="region" />
      <p role="status" className={leftOut ? 'mt-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100' : 'sr-only'}>
        {leftOut
          ? intl.formatMessage(
              {
                id: 'uploader.leftOut',
                defaultMessage:
                  'Only {limit, plural, one {# file} other {# files}} can be added here, so {count, plural, one {# file was} other {# files were}} left out: {names}.',
              },
              { limit: leftOut.limit, count: leftOut.names.length, names: intl.formatList(leftOut.names.map((n) => `“${n}”`), { type: 'unit' }) },
            )
          : ''}
      </p>
    </div>
  );
}
