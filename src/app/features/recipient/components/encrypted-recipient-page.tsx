import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { PublicTransfer } from '../../../../contract/public';
import { E2eeError, type LinkKeys } from '../../../../crypto';
import { Button } from '../../../components/button';
import { SkeletonCard } from '../../../components/skeleton';
import { isApiRequestError } from '../../../lib/api-error';
import { formatBytes } from '../../../lib/format';
import { useDownloadSession } from '../api/use-download-session';
import { decryptedFile, decryptedZip, zipSize } from '../e2ee/decrypted-downloads';
import { openEncryptedTransfer, type FileListMismatch, type OpenedFile, type OpenedTransfer } from '../e2ee/open-transfer';
import { MEMORY_SAVE_LIMIT, SaveCancelled, TooBigForMemory, chooseSaveTarget, saveWay, type SaveRequest } from '../e2ee/save-file';
import { downloadWorker } from '../e2ee/service-worker-save';
import { isGone, sessionErrorMessage, StatusPage, TransferErrorPage } from './status-pages';
import { DownloadGlyph, TransferView, type FileActionPlace, type ShownFile } from './transfer-view';

/**
 * The recipient page of an end-to-end encrypted transfer (issue 17), loaded only for one. The key is read from
 * `location.hash` once and never leaves this page's memory: no request, header, URL or log gets it. A wrong,
 * damaged or missing key, changed sealed metadata, or a file list that differs from the sender's manifest is
 * named before any download session (and so any visit) is started; the last keeps the files visible but
 * refuses their downloads. Each download fetches the ciphertext and decrypts it as it streams to disk.
 */
export default function EncryptedRecipientPage({ slug, transfer, recipientToken }: { slug: string; transfer: PublicTransfer; recipientToken: string | undefined }) {
  const [fragment] = useState(() => window.location.hash);
  const [opened, setOpened] = useState<OpenedTransfer | null>(null);
  const [failure, setFailure] = useState<unknown>(null);

  useEffect(() => {
    let live = true;
    openEncryptedTransfer(fragment, transfer).then(
      (result) => live && setOpened(result),
      (error: unknown) => live && setFailure(error),
    );
    return () => {
      live = false;
    };
  }, [fragment, transfer]);

  const ready = opened?.kind === 'opened' && opened.mismatch === null;
  const downloads = useDownloadSession({ slug, unlockToken: null, recipientToken, enabled: ready });

  if (failure) {
    return (
      <StatusPage title="This transfer couldn't be opened">
        <p role="alert">This browser could not decrypt it ({failure instanceof Error ? failure.message : 'unknown error'}). Try a current version of Chrome, Edge, Firefox or Safari.</p>
      </StatusPage>
    );
  }
  if (!opened) return <SkeletonCard label="Decrypting the transfer" />;
  if (opened.kind === 'bad_key') return <BadKeyPage reason={opened.reason} />;
  if (opened.kind === 'unreadable') {
    return (
      <StatusPage title="This transfer can't be opened safely">
        <p>Its encrypted details were changed after the sender sent it, so its files can't be checked. Nothing has been downloaded.</p>
        <p className="mt-2">Ask the sender to send the files again.</p>
      </StatusPage>
    );
  }
  if (isGone(downloads.error)) return <TransferErrorPage error={downloads.error} onRetry={() => void downloads.retry().catch(() => {})} />;

  return (
    <DecryptedTransferView
      transfer={transfer}
      keys={opened.keys}
      title={opened.title}
      message={opened.message}
      files={opened.files}
      mismatch={opened.mismatch}
      sessionError={downloads.error}
      onRetry={() => void downloads.retry().catch(() => {})}
      fresh={downloads.fresh}
    />
  );
}

/** A link without its key, with a damaged one, or with one that does not open this transfer. */
export function BadKeyPage({ reason }: { reason: 'missing' | 'damaged' | 'wrong' }) {
  if (reason === 'missing') {
    return (
      <StatusPage title="This link is incomplete">
        <p>The files are end-to-end encrypted, and the key that opens them is missing: it is the part of the link after “#”.</p>
        <p className="mt-2">Copy the whole link again, or ask the sender for it. Nothing has been downloaded.</p>
      </StatusPage>
    );
  }
  return (
    <StatusPage title="This link's key is wrong">
      <p>The files are end-to-end encrypted, and the key in this link does not open them: part of it was probably changed or cut off when it was copied.</p>
      <p className="mt-2">Copy the whole link again, or ask the sender for it. Nothing has been downloaded.</p>
    </StatusPage>
  );
}

interface DecryptedFile extends ShownFile {
  opened: OpenedFile;
}

/** What is being saved right now: one file, or the zip of all. */
interface Saving {
  id: string;
  done: number;
  total: number;
}

type Outcome = { kind: 'saved'; text: string } | { kind: 'failed'; text: string };

/** Object URLs of the decrypted thumbnails, made once and revoked when the page goes. */
function useThumbnailUrls(files: readonly OpenedFile[]): Map<string, string> {
  const [urls, setUrls] = useState<Map<string, string>>(() => new Map());
  useEffect(() => {
    const made = new Map<string, string>();
    for (const file of files) {
      if (file.thumbnail) made.set(file.id, URL.createObjectURL(new Blob([file.thumbnail.bytes], { type: file.thumbnail.type })));
    }
    setUrls(made);
    return () => {
      for (const url of made.values()) URL.revokeObjectURL(url);
    };
  }, [files]);
  return urls;
}

/** A file name fit for a save dialog or a zip, from the transfer's title. */
function zipName(title: string | null): string {
  // eslint-disable-next-line no-control-regex
  const safe = (title ?? '').replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, ' ').trim().slice(0, 100);
  return `${safe || 'files'}.zip`;
}

function listMismatchText(m: FileListMismatch): string {
  const parts = [
    m.added ? `${m.added} ${m.added === 1 ? 'file' : 'files'} added` : '',
    m.dropped ? `${m.dropped} ${m.dropped === 1 ? 'file' : 'files'} missing` : '',
    m.changed ? `${m.changed} ${m.changed === 1 ? 'file' : 'files'} changed` : '',
  ].filter(Boolean);
  return parts.join(', ');
}

function failureText(error: unknown, what: string): string {
  if (error instanceof TooBigForMemory) {
    return `${what} is too big for this browser to decrypt: it can save at most ${formatBytes(MEMORY_SAVE_LIMIT)} from an encrypted transfer. Open the link in a current Chrome, Edge, Firefox or Safari, which save straight to disk.`;
  }
  if (error instanceof E2eeError) {
    return `${what} could not be decrypted: the bytes the server sent are not the ones the sender encrypted (changed or cut short). Nothing was saved. Try again, or ask the sender to send it again.`;
  }
  if (isApiRequestError(error)) return `${what} could not be downloaded: ${error.message}`;
  if (error instanceof TypeError) return `The connection dropped while ${what} was downloading. Nothing was saved; try again.`;
  return `${what} could not be saved${error instanceof Error && error.message ? `: ${error.message}` : ''}. Nothing was saved.`;
}

function DecryptedTransferView({
  transfer,
  keys,
  title,
  message,
  files,
  mismatch,
  sessionError,
  onRetry,
  fresh,
}: {
  transfer: PublicTransfer;
  keys: LinkKeys;
  title: string | null;
  message: string | null;
  files: OpenedFile[];
  mismatch: FileListMismatch | null;
  sessionError: unknown;
  onRetry: () => void;
  fresh: ReturnType<typeof useDownloadSession>['fresh'];
}) {
  const thumbnails = useThumbnailUrls(files);
  const [saving, setSaving] = useState<Saving | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const busy = useRef(false);
  const way = useMemo(() => saveWay(), []);
  const refused = mismatch !== null;

  const shown: DecryptedFile[] = files.map((file) => ({
    id: file.id,
    name: file.name,
    path: file.path,
    sizeBytes: file.size,
    mimeType: file.type || 'application/octet-stream',
    thumbnailUrl: thumbnails.get(file.id) ?? null,
    opened: file,
  }));
  const totalBytes = files.reduce((sum, f) => sum + f.size, 0);
  const zip = useMemo(() => (files.length > 1 ? { name: zipName(title), size: zipSize(files) } : null), [files, title]);

  useEffect(() => {
    // Ready before the first click, so the download starts at once.
    if (!refused && way === 'service-worker') downloadWorker().catch(() => {});
  }, [refused, way]);

  async function save(id: string, request: SaveRequest, what: string, open: (urls: Map<string, string>, onBytes: (n: number) => void) => ReadableStream<Uint8Array>, total: number) {
    if (busy.current || refused) return;
    busy.current = true;
    setOutcome(null);
    try {
      // First, while the click's user activation lasts: the save dialog needs it.
      const target = await chooseSaveTarget(request);
      setSaving({ id, done: 0, total });
      const session = await fresh();
      const urls = new Map(session.files.map((f) => [f.id, f.url]));
      let done = 0;
      const stream = open(urls, (n) => {
        done += n;
        setSaving({ id, done, total });
      });
      await target.write(stream);
      setOutcome({ kind: 'saved', text: `${what} was decrypted and saved.` });
    } catch (error) {
      if (!(error instanceof SaveCancelled)) setOutcome({ kind: 'failed', text: failureText(error, what) });
    } finally {
      busy.current = false;
      setSaving(null);
    }
  }

  function saveFile(file: OpenedFile) {
    void save(file.id, { filename: file.name, size: file.size, type: file.type }, file.name, (urls, onBytes) => decryptedFile(keys.content, file, urls.get(file.id) ?? '', onBytes), file.size);
  }

  function saveZip() {
    if (!zip) return;
    const entries = (urls: Map<string, string>, onBytes: (n: number) => void) =>
      files.map((file) => {
        const url = urls.get(file.id);
        if (!url) throw new Error(`${file.name} has no download link.`);
        return { ...file, open: () => decryptedFile(keys.content, file, url, onBytes) };
      });
    void save('zip', { filename: zip.name, size: zip.size, type: 'application/zip' }, zip.name, (urls, onBytes) => decryptedZip(entries(urls, onBytes)), totalBytes);
  }

  const progress = (id: string) =>
    saving?.id === id ? `Decrypting… ${saving.total ? Math.floor((saving.done / saving.total) * 100) : 100}%` : null;

  const notices = (
    <>
      {mismatch ? (
        <div role="alert" className="mb-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/60 dark:text-red-200">
          <p className="font-medium">Downloads are turned off: these aren't the files the sender sent.</p>
          <p className="mt-1">
            The server lists files that differ from the list the sender sealed ({listMismatchText(mismatch)}), so they may have been tampered with. Ask the sender to send them
            again.
          </p>
        </div>
      ) : null}
      {sessionError && !refused ? (
        <div role="alert" className="mb-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/60 dark:text-red-200">
          <p>{sessionErrorMessage(sessionError)}</p>
          <Button variant="secondary" onClick={onRetry} className="mt-2 min-h-11">
            Try again
          </Button>
        </div>
      ) : null}
      {outcome ? (
        <p
          role={outcome.kind === 'failed' ? 'alert' : 'status'}
          className={
            outcome.kind === 'failed'
              ? 'mb-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/60 dark:text-red-200'
              : 'mb-4 text-sm text-green-800 dark:text-green-300'
          }
        >
          {outcome.text}
        </p>
      ) : null}
      {way === 'memory' && (zip ? zip.size : totalBytes) > MEMORY_SAVE_LIMIT ? (
        <p className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
          This browser can save at most {formatBytes(MEMORY_SAVE_LIMIT)} at a time from an encrypted transfer. For bigger files, open the link in a current Chrome, Edge,
          Firefox or Safari.
        </p>
      ) : null}
    </>
  );

  const only = files.length === 1 ? files[0] : undefined;
  const mainAction: ReactNode = only ? (
    <Button onClick={() => saveFile(only)} disabled={refused || saving !== null} className="min-h-12 w-full px-6 text-base break-all sm:w-auto">
      <DownloadGlyph />
      {progress(only.id) ?? (
        <>
          Download {only.name}
          <span className="font-normal opacity-90">({formatBytes(only.size)})</span>
        </>
      )}
    </Button>
  ) : zip ? (
    <Button onClick={saveZip} disabled={refused || saving !== null} className="min-h-12 w-full px-6 text-base sm:w-auto">
      <DownloadGlyph />
      {progress('zip') ?? (
        <>
          Download all
          <span className="font-normal opacity-90">({formatBytes(zip.size)} zip)</span>
        </>
      )}
    </Button>
  ) : null;

  function fileAction(file: DecryptedFile, place: FileActionPlace): ReactNode {
    const label = progress(file.id);
    return (
      <Button
        variant={place === 'row' ? 'secondary' : 'primary'}
        onClick={() => saveFile(file.opened)}
        disabled={refused || saving !== null}
        className={place === 'row' ? 'min-h-11 w-full sm:w-auto' : ''}
      >
        {place === 'row' ? <DownloadGlyph /> : null}
        {label ?? 'Download'}
        <span className="sr-only"> {file.name}</span>
      </Button>
    );
  }

  const note = (
    <p className="mt-4 flex items-start gap-2 text-sm text-zinc-700 dark:text-zinc-300">
      <LockGlyph />
      <span>End-to-end encrypted: the names, message and files were decrypted in this browser with the key in your link. The server cannot read them.</span>
    </p>
  );

  return (
    <TransferView
      transfer={{ title, message, workspaceName: transfer.workspaceName, expiresAt: transfer.expiresAt, totalBytes, files: shown }}
      notices={notices}
      mainAction={mainAction}
      fileAction={fileAction}
      note={note}
    />
  );
}

function LockGlyph() {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 20 20" className="mt-0.5 size-4 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round">
      <rect x="4" y="9" width="12" height="8" rx="1.5" />
      <path d="M7 9V6.5a3 3 0 0 1 6 0V9" />
    </svg>
  );
}
