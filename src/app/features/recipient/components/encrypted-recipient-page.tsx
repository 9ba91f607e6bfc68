import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { IntlShape } from 'react-intl';
import type { PublicTransfer } from '../../../../contract/public';
import { E2eeError, type LinkKeys } from '../../../../crypto';
import { Button } from '../../../components/button';
import { SkeletonCard } from '../../../components/skeleton';
import { isApiRequestError } from '../../../lib/api-error';
import { formatBytes } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { useDownloadSession } from '../api/use-download-session';
import { decryptedFile, decryptedZip, NoFileSent, zipSize } from '../e2ee/decrypted-downloads';
import { openEncryptedTransfer, type FileListMismatch, type OpenedFile, type OpenedTransfer } from '../e2ee/open-transfer';
import { MEMORY_SAVE_LIMIT, SaveCancelled, TooBigForMemory, chooseSaveTarget, saveWay, type SaveRequest } from '../e2ee/save-file';
import { downloadWorker, WorkerSaveFailed } from '../e2ee/service-worker-save';
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
  const intl = useIntl();
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
      <StatusPage title={intl.formatMessage({ id: 'e2ee.openFailed', defaultMessage: "This transfer couldn't be opened" })}>
        <p role="alert">
          {failure instanceof Error
            ? intl.formatMessage(
                {
                  id: 'e2ee.openFailedHelp',
                  defaultMessage: 'This browser could not decrypt it ({reason}). Try a current version of Chrome, Edge, Firefox or Safari.',
                },
                { reason: <bdi key="reason">{failure.message}</bdi> },
              )
            : intl.formatMessage({
                id: 'e2ee.openFailedUnknownHelp',
                defaultMessage: 'This browser could not decrypt it (unknown error). Try a current version of Chrome, Edge, Firefox or Safari.',
              })}
        </p>
      </StatusPage>
    );
  }
  if (!opened) return <SkeletonCard label={intl.formatMessage({ id: 'e2ee.decrypting', defaultMessage: 'Decrypting the transfer' })} />;
  if (opened.kind === 'bad_key') return <BadKeyPage reason={opened.reason} />;
  if (opened.kind === 'unreadable') {
    return (
      <StatusPage title={intl.formatMessage({ id: 'e2ee.unreadable', defaultMessage: "This transfer can't be opened safely" })}>
        <p>
          {intl.formatMessage({
            id: 'e2ee.unreadableHelp',
            defaultMessage: "Its encrypted details were changed after the sender sent it, so its files can't be checked. Nothing has been downloaded.",
          })}
        </p>
        <p className="mt-2">{intl.formatMessage({ id: 'e2ee.askToSendFilesAgain', defaultMessage: 'Ask the sender to send the files again.' })}</p>
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
  const intl = useIntl();
  const copyAgain = (
    <p className="mt-2">
      {intl.formatMessage({ id: 'e2ee.copyLinkAgain', defaultMessage: 'Copy the whole link again, or ask the sender for it. Nothing has been downloaded.' })}
    </p>
  );
  if (reason === 'missing') {
    return (
      <StatusPage title={intl.formatMessage({ id: 'e2ee.keyMissing', defaultMessage: 'This link is incomplete' })}>
        <p>
          {intl.formatMessage({
            id: 'e2ee.keyMissingHelp',
            defaultMessage: 'The files are end-to-end encrypted, and the key that opens them is missing: it is the part of the link after “#”.',
          })}
        </p>
        {copyAgain}
      </StatusPage>
    );
  }
  return (
    <StatusPage title={intl.formatMessage({ id: 'e2ee.keyWrong', defaultMessage: "This link's key is wrong" })}>
      <p>
        {intl.formatMessage({
          id: 'e2ee.keyWrongHelp',
          defaultMessage: 'The files are end-to-end encrypted, and the key in this link does not open them: part of it was probably changed or cut off when it was copied.',
        })}
      </p>
      {copyAgain}
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

type Outcome = { kind: 'saved'; text: ReactNode } | { kind: 'failed'; text: ReactNode };

/** The lighter part of a download button: its size. */
const muted = (chunks: ReactNode[]) => (
  <span key="muted" className="font-normal opacity-90">
    {chunks}
  </span>
);

/** A file in the zip had no link in the download session. */
class NoDownloadLink extends Error {
  override readonly name = 'NoDownloadLink';
  readonly fileName: string;

  constructor(fileName: string) {
    super(`${fileName} has no download link.`);
    this.fileName = fileName;
  }
}

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

/** A file name fit for a save dialog or a zip, from the transfer's title (or the page's word for "files"). */
function zipName(title: string | null, intl: IntlShape): string {
  // eslint-disable-next-line no-control-regex
  const unsafe = /[\u0000-\u001f\u007f/\\:*?"<>|]+/g;
  const safe = (title ?? '').replace(unsafe, ' ').trim().slice(0, 100);
  const fallback = intl.formatMessage({ id: 'e2ee.zipDefaultName', defaultMessage: 'files' }).replace(unsafe, ' ').trim();
  return `${safe || fallback || 'files'}.zip`;
}

/** What differs between the server's list and the sender's ("1 file added, 2 files missing"), as a list in the page's language. */
function listMismatchText(m: FileListMismatch, intl: IntlShape): string {
  const parts = [
    m.added ? intl.formatMessage({ id: 'e2ee.filesAdded', defaultMessage: '{count, plural, one {# file added} other {# files added}}' }, { count: m.added }) : '',
    m.dropped ? intl.formatMessage({ id: 'e2ee.filesMissing', defaultMessage: '{count, plural, one {# file missing} other {# files missing}}' }, { count: m.dropped }) : '',
    m.changed ? intl.formatMessage({ id: 'e2ee.filesChanged', defaultMessage: '{count, plural, one {# file changed} other {# files changed}}' }, { count: m.changed }) : '',
  ].filter(Boolean);
  return intl.formatList(parts, { type: 'unit', style: 'short' });
}

/** Why saving `name` failed, in the reader's words. */
function failureText(error: unknown, name: string, intl: IntlShape): ReactNode {
  const what = <bdi key="what">{name}</bdi>;
  if (error instanceof TooBigForMemory) {
    return intl.formatMessage(
      {
        id: 'e2ee.tooBigForMemory',
        defaultMessage:
          '{what} is too big for this browser to decrypt: it can save at most {limit} from an encrypted transfer. Open the link in a current Chrome, Edge, Firefox or Safari, which save straight to disk.',
      },
      { what, limit: formatBytes(MEMORY_SAVE_LIMIT) },
    );
  }
  if (error instanceof E2eeError) {
    return intl.formatMessage(
      {
        id: 'e2ee.decryptFailed',
        defaultMessage:
          '{what} could not be decrypted: the bytes the server sent are not the ones the sender encrypted (changed or cut short). Nothing was saved. Try again, or ask the sender to send it again.',
      },
      { what },
    );
  }
  if (isApiRequestError(error)) {
    return intl.formatMessage({ id: 'e2ee.downloadFailed', defaultMessage: '{what} could not be downloaded: {reason}' }, { what, reason: <bdi key="reason">{error.message}</bdi> });
  }
  if (error instanceof TypeError) {
    return intl.formatMessage({ id: 'e2ee.connectionDropped', defaultMessage: 'The connection dropped while {what} was downloading. Nothing was saved; try again.' }, { what });
  }
  if (error instanceof NoFileSent) {
    return intl.formatMessage({ id: 'e2ee.noFileSent', defaultMessage: '{what} could not be saved: the server sent no file. Nothing was saved.' }, { what });
  }
  if (error instanceof NoDownloadLink) {
    return intl.formatMessage(
      { id: 'e2ee.noDownloadLink', defaultMessage: '{what} could not be saved: {file} has no download link. Nothing was saved.' },
      { what, file: <bdi key="file">{error.fileName}</bdi> },
    );
  }
  if (error instanceof WorkerSaveFailed) {
    return intl.formatMessage(
      {
        id: 'e2ee.workerSaveFailed',
        defaultMessage:
          '{reason, select, helper_not_started {{what} could not be saved: the download helper could not be started. Nothing was saved.} download_not_started {{what} could not be saved: the browser did not start the download. Nothing was saved; try again.} other {{what} could not be saved: the download was cancelled. Nothing was saved.}}',
      },
      { what, reason: error.reason },
    );
  }
  if (error instanceof Error && error.message) {
    return intl.formatMessage({ id: 'e2ee.saveFailed', defaultMessage: '{what} could not be saved: {reason}. Nothing was saved.' }, { what, reason: <bdi key="reason">{error.message}</bdi> });
  }
  return intl.formatMessage({ id: 'e2ee.saveFailedUnknown', defaultMessage: '{what} could not be saved. Nothing was saved.' }, { what });
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
  const intl = useIntl();
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
  const zip = useMemo(() => (files.length > 1 ? { name: zipName(title, intl), size: zipSize(files) } : null), [files, title, intl]);

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
      setOutcome({
        kind: 'saved',
        text: intl.formatMessage({ id: 'e2ee.saved', defaultMessage: '{what} was decrypted and saved.' }, { what: <bdi key="what">{what}</bdi> }),
      });
    } catch (error) {
      if (!(error instanceof SaveCancelled)) setOutcome({ kind: 'failed', text: failureText(error, what, intl) });
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
        if (!url) throw new NoDownloadLink(file.name);
        return { ...file, open: () => decryptedFile(keys.content, file, url, onBytes) };
      });
    void save('zip', { filename: zip.name, size: zip.size, type: 'application/zip' }, zip.name, (urls, onBytes) => decryptedZip(entries(urls, onBytes)), totalBytes);
  }

  const progress = (id: string) =>
    saving?.id === id
      ? intl.formatMessage(
          { id: 'e2ee.decryptingProgress', defaultMessage: 'Decrypting… {share, number, percent}' },
          { share: saving.total ? Math.floor((saving.done / saving.total) * 100) / 100 : 1 },
        )
      : null;
  const downloadLabel = intl.formatMessage({ id: 'recipient.download', defaultMessage: 'Download' });

  const notices = (
    <>
      {mismatch ? (
        <div role="alert" className="mb-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/60 dark:text-red-200">
          <p className="font-medium">
            {intl.formatMessage({ id: 'e2ee.downloadsRefused', defaultMessage: "Downloads are turned off: these aren't the files the sender sent." })}
          </p>
          <p className="mt-1">
            {intl.formatMessage(
              {
                id: 'e2ee.downloadsRefusedHelp',
                defaultMessage:
                  'The server lists files that differ from the list the sender sealed ({changes}), so they may have been tampered with. Ask the sender to send them again.',
              },
              { changes: listMismatchText(mismatch, intl) },
            )}
          </p>
        </div>
      ) : null}
      {sessionError && !refused ? (
        <div role="alert" className="mb-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/60 dark:text-red-200">
          <p>{sessionErrorMessage(sessionError, intl)}</p>
          <Button variant="secondary" onClick={onRetry} className="mt-2 min-h-11">
            {intl.formatMessage({ id: 'status.tryAgain', defaultMessage: 'Try again' })}
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
          {intl.formatMessage(
            {
              id: 'e2ee.memoryLimit',
              defaultMessage:
                'This browser can save at most {limit} at a time from an encrypted transfer. For bigger files, open the link in a current Chrome, Edge, Firefox or Safari.',
            },
            { limit: formatBytes(MEMORY_SAVE_LIMIT) },
          )}
        </p>
      ) : null}
    </>
  );

  const only = files.length === 1 ? files[0] : undefined;
  const mainAction: ReactNode = only ? (
    <Button onClick={() => saveFile(only)} disabled={refused || saving !== null} className="min-h-12 w-full px-6 text-base break-all sm:w-auto">
      <DownloadGlyph />
      {progress(only.id) ??
        intl.formatMessage({ id: 'recipient.downloadOne', defaultMessage: 'Download {name}<muted>({size})</muted>' }, { name: <bdi key="name">{only.name}</bdi>, size: formatBytes(only.size), muted })}
    </Button>
  ) : zip ? (
    <Button onClick={saveZip} disabled={refused || saving !== null} className="min-h-12 w-full px-6 text-base sm:w-auto">
      <DownloadGlyph />
      {progress('zip') ?? intl.formatMessage({ id: 'recipient.downloadAllZip', defaultMessage: 'Download all<muted>({size} zip)</muted>' }, { size: formatBytes(zip.size), muted })}
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
        {label ?? downloadLabel}
        <span className="sr-only"> {file.name}</span>
      </Button>
    );
  }

  const note = (
    <p className="mt-4 flex items-start gap-2 text-sm text-zinc-700 dark:text-zinc-300">
      <LockGlyph />
      <span>
        {intl.formatMessage({
          id: 'e2ee.decryptedHere',
          defaultMessage: 'End-to-end encrypted: the names, message and files were decrypted in this browser with the key in your link. The server cannot read them.',
        })}
      </span>
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
