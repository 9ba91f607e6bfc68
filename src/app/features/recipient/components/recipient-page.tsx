import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { SkeletonCard } from '../../../components/skeleton';
import { forgetUnlock, rememberedUnlock, rememberUnlock } from '../utils/unlock-store';
import type { DownloadSession, PublicTransfer, PublicTransferFile } from '../../../../contract/public';
import { Button, buttonClass } from '../../../components/button';
import { isApiRequestError } from '../../../lib/api-error';
import { formatBytes, formatDateTime, formatRelativeTime } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { publicTransferQueryOptions, unlockTransfer } from '../api/public-api';
import { sessionExpired, useDownloadSession } from '../api/use-download-session';
import { fileKind, fileTypeLabel } from '../utils/file-kind';
import { triggerDownload } from '../utils/trigger-download';
import { PreviewGrid } from './previews';
import { FileIcon } from './file-icon';
import { PasswordForm } from './password-form';
import { EncryptedTransferPage, tooManyAttemptsMessage, TransferErrorPage } from './status-pages';

const isPasswordRequired = (error: unknown) => isApiRequestError(error) && error.status === 401 && error.code !== 'wrong_password';
/** Session errors that mean the whole transfer can't be downloaded any more. */
const isGone = (error: unknown) => isApiRequestError(error) && (error.status === 404 || error.status === 410);

/** The recipient's page of a shared transfer link. */
export function RecipientPage({ slug, recipientToken }: { slug: string; recipientToken: string | undefined }) {
  // The unlock lasts for the browser session: a reload or another tab of this link keeps it.
  const [unlockToken, setUnlockToken] = useState<string | null>(() => rememberedUnlock(slug));
  const transfer = useQuery(publicTransferQueryOptions(slug, unlockToken));
  const data = transfer.data;
  const downloads = useDownloadSession({ slug, unlockToken, recipientToken, enabled: !!data && !data.e2ee });

  useEffect(() => {
    // The unlock token ran out (it lasts an hour) while the page was open: ask again.
    if (isPasswordRequired(downloads.error)) {
      forgetUnlock(slug);
      setUnlockToken(null);
    }
  }, [downloads.error, slug]);

  if (transfer.isPending) return <SkeletonCard label="Loading transfer" />;
  if (transfer.isError) {
    if (isPasswordRequired(transfer.error)) {
      return (
        <PasswordForm
          heading="This transfer is protected"
          lead="Enter the password the sender gave you to see the files."
          unlock={(password) => unlockTransfer(slug, password)}
          onUnlocked={({ unlockToken: token, expiresAt }) => {
            rememberUnlock(slug, token, expiresAt);
            setUnlockToken(token);
          }}
        />
      );
    }
    return <TransferErrorPage error={transfer.error} onRetry={() => void transfer.refetch()} />;
  }
  const t = transfer.data;
  if (t.e2ee) return <EncryptedTransferPage workspaceName={t.workspaceName} />;
  if (isGone(downloads.error)) return <TransferErrorPage error={downloads.error} onRetry={() => void downloads.retry().catch(() => {})} />;

  return (
    <TransferView
      transfer={t}
      session={downloads.session}
      pending={downloads.pending}
      sessionError={isPasswordRequired(downloads.error) ? null : downloads.error}
      onRetry={() => void downloads.retry().catch(() => {})}
      fresh={downloads.fresh}
    />
  );
}

function sessionErrorMessage(error: unknown): string {
  if (isApiRequestError(error) && error.status === 429) return tooManyAttemptsMessage(error);
  return error instanceof Error ? error.message : 'The downloads could not be prepared.';
}

function TransferView({
  transfer,
  session,
  pending,
  sessionError,
  onRetry,
  fresh,
}: {
  transfer: PublicTransfer;
  session: DownloadSession | null;
  pending: boolean;
  sessionError: unknown;
  onRetry: () => void;
  fresh: () => Promise<DownloadSession>;
}) {
  const count = transfer.files.length;
  const countLabel = `${count} ${count === 1 ? 'file' : 'files'}`;
  const heading = transfer.title?.trim() || `${countLabel} from ${transfer.workspaceName}`;
  useDocumentTitle(heading);

  // A file still being checked for viruses has no link yet: its download would be refused until then.
  const checking = transfer.files.filter((f) => f.scanPending).length;
  const pendingIds = new Set(transfer.files.filter((f) => f.scanPending).map((f) => f.id));
  const fileUrls = new Map(session?.files.filter((f) => !pendingIds.has(f.id)).map((f) => [f.id, f.url]) ?? []);
  const only = count === 1 ? transfer.files[0] : undefined;

  /** Plain links do the downloading; only an expired session needs a new one first. */
  function onDownload(event: MouseEvent<HTMLAnchorElement>, pick: (s: DownloadSession) => string | undefined) {
    if (!session || !sessionExpired(session)) return;
    event.preventDefault();
    fresh()
      .then((renewed) => {
        const url = pick(renewed);
        if (url) triggerDownload(url);
      })
      .catch(() => {
        // Shown through the session error.
      });
  }

  return (
    <div className="space-y-6">
      <section aria-labelledby="transfer-title" className="rounded-xl border border-zinc-200 bg-white p-5 shadow-xs sm:p-8 dark:border-zinc-800 dark:bg-zinc-900">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          <span className="font-semibold text-zinc-900 dark:text-zinc-100">{transfer.workspaceName}</span> sent you {countLabel}
        </p>
        <h1 id="transfer-title" className="mt-2 text-2xl font-semibold tracking-tight break-words text-zinc-900 sm:text-3xl dark:text-zinc-50">
          {heading}
        </h1>
        {transfer.message ? (
          <p className="mt-4 whitespace-pre-line break-words text-zinc-800 dark:text-zinc-200">{transfer.message}</p>
        ) : null}
        <dl className="mt-6 grid grid-cols-1 gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-zinc-600 dark:text-zinc-400">Total size</dt>
            <dd className="font-medium text-zinc-900 dark:text-zinc-100">{formatBytes(transfer.totalBytes)}</dd>
          </div>
          <div>
            <dt className="text-zinc-600 dark:text-zinc-400">Available until</dt>
            <dd className="font-medium text-zinc-900 dark:text-zinc-100">
              <time dateTime={transfer.expiresAt}>{formatDateTime(transfer.expiresAt)}</time>{' '}
              <span className="font-normal text-zinc-600 dark:text-zinc-400">(expires {formatRelativeTime(transfer.expiresAt)})</span>
            </dd>
          </div>
        </dl>

        <div className="mt-6">
          {sessionError ? (
            <div role="alert" className="mb-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/60 dark:text-red-200">
              <p>{sessionErrorMessage(sessionError)}</p>
              <Button variant="secondary" onClick={onRetry} className="mt-2 min-h-11">
                Try again
              </Button>
            </div>
          ) : null}
          {checking > 0 ? (
            <p role="status" className="mb-4 flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
              <span aria-hidden="true" className="size-3 shrink-0 animate-pulse rounded-full bg-amber-500" />
              {checking === count
                ? `Checking ${count === 1 ? 'the file' : 'the files'} for viruses. ${count === 1 ? 'It' : 'They'} can be downloaded in a few seconds.`
                : `Checking ${checking} of the files for viruses. ${checking === 1 ? 'It' : 'They'} can be downloaded in a few seconds.`}
            </p>
          ) : null}
          {count === 0 ? (
            <p className="text-zinc-700 dark:text-zinc-300">There are no files to download in this transfer yet.</p>
          ) : count === 1 ? (
            // One file is offered as itself: nobody wants a zip around a single file.
            only && fileUrls.get(only.id) ? (
              <a
                href={fileUrls.get(only.id)}
                download={only.name}
                referrerPolicy="no-referrer"
                rel="noreferrer"
                onClick={(event) => onDownload(event, (s) => s.files.find((f) => f.id === only.id)?.url)}
                className={buttonClass('primary', 'min-h-12 w-full px-6 text-base break-all sm:w-auto')}
              >
                <DownloadGlyph />
                Download {only.name}
                <span className="font-normal opacity-90">({formatBytes(only.sizeBytes)})</span>
              </a>
            ) : (
              <Button disabled className="min-h-12 w-full px-6 text-base sm:w-auto">
                {checking > 0 ? 'Checking for viruses…' : pending ? 'Preparing download…' : 'Download'}
              </Button>
            )
          ) : transfer.zip ? (
            session?.zip && checking === 0 ? (
              <a
                href={session.zip.url}
                download={transfer.zip.name}
                referrerPolicy="no-referrer"
                rel="noreferrer"
                onClick={(event) => onDownload(event, (s) => s.zip?.url)}
                className={buttonClass('primary', 'min-h-12 w-full px-6 text-base sm:w-auto')}
              >
                <DownloadGlyph />
                Download all
                <span className="font-normal opacity-90">({formatBytes(transfer.zip.sizeBytes)} zip)</span>
              </a>
            ) : (
              <Button disabled className="min-h-12 w-full px-6 text-base sm:w-auto">
                {checking > 0 ? 'Checking for viruses…' : pending ? 'Preparing downloads…' : 'Download all'}
              </Button>
            )
          ) : null}
        </div>
      </section>

      <PreviewGrid files={transfer.files} fileUrls={fileUrls} onDownload={onDownload} />

      {count > 0 ? (
        <section aria-labelledby="files-title">
          <div className="flex flex-wrap items-baseline justify-between gap-2 px-1">
            <h2 id="files-title" className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">
              Files
            </h2>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              {countLabel} · {formatBytes(transfer.totalBytes)}
            </p>
          </div>
          <ul className="mt-3 divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
            {transfer.files.map((file) => (
              <FileRow key={file.id} file={file} url={fileUrls.get(file.id)} onDownload={onDownload} />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

function FileRow({
  file,
  url,
  onDownload,
}: {
  file: PublicTransferFile;
  url: string | undefined;
  onDownload: (event: MouseEvent<HTMLAnchorElement>, pick: (s: DownloadSession) => string | undefined) => void;
}) {
  const action: ReactNode = url ? (
    <a
      href={url}
      download={file.name}
      referrerPolicy="no-referrer"
      rel="noreferrer"
      onClick={(event) => onDownload(event, (s) => s.files.find((f) => f.id === file.id)?.url)}
      className={buttonClass('secondary', 'min-h-11 w-full sm:w-auto')}
    >
      <DownloadGlyph />
      Download<span className="sr-only"> {file.name}</span>
    </a>
  ) : (
    <Button variant="secondary" disabled className="min-h-11 w-full sm:w-auto">
      {file.scanPending ? 'Checking for viruses…' : 'Download'}
      <span className="sr-only"> {file.name}</span>
    </Button>
  );
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <FileIcon kind={fileKind(file.mimeType, file.name)} />
        <div className="min-w-0">
          <p className="font-medium break-all text-zinc-900 dark:text-zinc-100">{file.name}</p>
          {file.path ? (
            <p className="text-sm break-all text-zinc-600 dark:text-zinc-400">
              <span className="sr-only">Folder: </span>
              {file.path}/
            </p>
          ) : null}
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {fileTypeLabel(file.mimeType, file.name)} · {formatBytes(file.sizeBytes)}
          </p>
        </div>
      </div>
      {action}
    </li>
  );
}

function DownloadGlyph() {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round">
      <path d="M10 3v10m0 0-4-4m4 4 4-4M4 16.5h12" />
    </svg>
  );
}
