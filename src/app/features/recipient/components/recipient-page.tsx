import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { SkeletonCard } from '../../../components/skeleton';
import { forgetUnlock, rememberedUnlock, rememberUnlock } from '../utils/unlock-store';
import type { DownloadSession, PublicTransfer, PublicTransferFile } from '../../../../contract/public';
import { Button, buttonClass, type ButtonVariant } from '../../../components/button';
import { isApiRequestError } from '../../../lib/api-error';
import { formatBytes } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { publicTransferQueryOptions, unlockTransfer } from '../api/public-api';
import { sessionExpired, useDownloadSession } from '../api/use-download-session';
import { triggerDownload } from '../utils/trigger-download';
import { PasswordForm } from './password-form';
import { isGone, sessionErrorMessage, TransferErrorPage } from './status-pages';
import { DownloadGlyph, TransferView, type FileActionPlace } from './transfer-view';

/** Decrypting needs WebCrypto code, the zip writer and the download worker's client: loaded only for an encrypted transfer. */
const EncryptedRecipientPage = lazy(() => import('./encrypted-recipient-page'));

const isPasswordRequired = (error: unknown) => isApiRequestError(error) && error.status === 401 && error.code !== 'wrong_password';

/** The lighter part of a download button: its size. */
const muted = (chunks: ReactNode[]) => (
  <span key="muted" className="font-normal opacity-90">
    {chunks}
  </span>
);

/** The recipient's page of a shared transfer link. */
export function RecipientPage({ slug, recipientToken }: { slug: string; recipientToken: string | undefined }) {
  const intl = useIntl();
  // The unlock lasts for the browser session: a reload or another tab of this link keeps it.
  const [unlockToken, setUnlockToken] = useState<string | null>(() => rememberedUnlock(slug));
  const visit = useRef<string | undefined>(undefined);
  const transfer = useQuery(publicTransferQueryOptions(slug, unlockToken, () => visit.current));
  const data = transfer.data;
  const downloads = useDownloadSession({ slug, unlockToken, recipientToken, enabled: !!data && !data.e2ee });
  const sessionId = downloads.session?.sessionId;
  useEffect(() => {
    visit.current = sessionId;
  }, [sessionId]);

  useEffect(() => {
    // The unlock token ran out (it lasts an hour) while the page was open: ask again.
    if (isPasswordRequired(downloads.error)) {
      forgetUnlock(slug);
      setUnlockToken(null);
    }
  }, [downloads.error, slug]);

  if (transfer.isPending) return <SkeletonCard label={intl.formatMessage({ id: 'recipient.loading', defaultMessage: 'Loading transfer' })} />;
  if (transfer.isError) {
    if (isPasswordRequired(transfer.error)) {
      return (
        <PasswordForm
          heading={intl.formatMessage({ id: 'recipient.protected', defaultMessage: 'This transfer is protected' })}
          lead={intl.formatMessage({ id: 'recipient.protectedLead', defaultMessage: 'Enter the password the sender gave you to see the files.' })}
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
  if (t.e2ee) {
    return (
      <Suspense fallback={<SkeletonCard label={intl.formatMessage({ id: 'recipient.openingEncrypted', defaultMessage: 'Opening the encrypted transfer' })} />}>
        <EncryptedRecipientPage slug={slug} transfer={t} recipientToken={recipientToken} />
      </Suspense>
    );
  }
  if (isGone(downloads.error)) return <TransferErrorPage error={downloads.error} onRetry={() => void downloads.retry().catch(() => {})} />;

  return (
    <PlainTransferView
      transfer={t}
      session={downloads.session}
      pending={downloads.pending}
      sessionError={isPasswordRequired(downloads.error) ? null : downloads.error}
      onRetry={() => void downloads.retry().catch(() => {})}
      fresh={downloads.fresh}
    />
  );
}

function PlainTransferView({
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
  const intl = useIntl();
  const count = transfer.files.length;
  // A file still being checked for viruses has no link yet: its download would be refused until then.
  const checking = transfer.files.filter((f) => f.scanPending).length;
  const pendingIds = new Set(transfer.files.filter((f) => f.scanPending).map((f) => f.id));
  const fileUrls = new Map(session?.files.filter((f) => !pendingIds.has(f.id)).map((f) => [f.id, f.url]) ?? []);
  const only = count === 1 ? transfer.files[0] : undefined;
  const checkingLabel = intl.formatMessage({ id: 'recipient.checking', defaultMessage: 'Checking for viruses…' });
  const downloadLabel = intl.formatMessage({ id: 'recipient.download', defaultMessage: 'Download' });

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

  const notices = (
    <>
      {sessionError ? (
        <div role="alert" className="mb-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950/60 dark:text-red-200">
          <p>{sessionErrorMessage(sessionError, intl)}</p>
          <Button variant="secondary" onClick={onRetry} className="mt-2 min-h-11">
            {intl.formatMessage({ id: 'status.tryAgain', defaultMessage: 'Try again' })}
          </Button>
        </div>
      ) : null}
      {checking > 0 ? (
        <p role="status" className="mb-4 flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
          <span aria-hidden="true" className="size-3 shrink-0 animate-pulse rounded-full bg-amber-500" />
          {checking === count
            ? intl.formatMessage(
                {
                  id: 'recipient.scanningAll',
                  defaultMessage:
                    '{count, plural, one {Checking the file for viruses. It can be downloaded in a few seconds.} other {Checking the files for viruses. They can be downloaded in a few seconds.}}',
                },
                { count },
              )
            : intl.formatMessage(
                {
                  id: 'recipient.scanningSome',
                  defaultMessage:
                    '{checking, plural, one {Checking # of the files for viruses. It can be downloaded in a few seconds.} other {Checking # of the files for viruses. They can be downloaded in a few seconds.}}',
                },
                { checking },
              )}
        </p>
      ) : null}
    </>
  );

  // Until the page's download session answers (it is asked for as the page opens), each download
  // shows as a disabled button with the very glyph and words of the link it becomes: the server-rendered
  // page and the hydrated one keep every box in place, however long the answer takes.
  const oneLabel = only
    ? intl.formatMessage(
        { id: 'recipient.downloadOne', defaultMessage: 'Download {name}<muted>({size})</muted>' },
        { name: <bdi key="name">{only.name}</bdi>, size: formatBytes(only.sizeBytes), muted },
      )
    : null;
  const zipLabel = transfer.zip
    ? intl.formatMessage({ id: 'recipient.downloadAllZip', defaultMessage: 'Download all<muted>({size} zip)</muted>' }, { size: formatBytes(transfer.zip.sizeBytes), muted })
    : null;
  /** A download not yet possible: still being checked for viruses, or waiting for the session's link. */
  const waiting = ({ className, label, scanning, variant, name }: { className: string; label: ReactNode; scanning: boolean; variant?: ButtonVariant; name?: string }) => (
    <Button variant={variant} disabled aria-busy={pending && !scanning} className={className}>
      {scanning ? (
        checkingLabel
      ) : (
        <>
          <DownloadGlyph />
          {label}
        </>
      )}
      {name ? <span className="sr-only"> {name}</span> : null}
    </Button>
  );

  const mainAction =
    count === 1 ? (
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
          {oneLabel}
        </a>
      ) : (
        waiting({ className: 'min-h-12 w-full px-6 text-base break-all sm:w-auto', label: oneLabel, scanning: checking > 0 })
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
          {zipLabel}
        </a>
      ) : (
        waiting({ className: 'min-h-12 w-full px-6 text-base sm:w-auto', label: zipLabel, scanning: checking > 0 })
      )
    ) : null;

  function fileAction(file: PublicTransferFile, place: FileActionPlace): ReactNode {
    const url = fileUrls.get(file.id);
    const link = (className: string) => (
      <a
        href={url}
        download={file.name}
        referrerPolicy="no-referrer"
        rel="noreferrer"
        onClick={(event) => onDownload(event, (s) => s.files.find((f) => f.id === file.id)?.url)}
        className={className}
      >
        {place === 'row' ? <DownloadGlyph /> : null}
        {downloadLabel}
        <span className="sr-only"> {file.name}</span>
      </a>
    );
    if (place === 'preview') return url ? link(buttonClass('primary')) : null;
    return url ? (
      link(buttonClass('secondary', 'min-h-11 w-full sm:w-auto'))
    ) : (
      waiting({ variant: 'secondary', className: 'min-h-11 w-full sm:w-auto', label: downloadLabel, scanning: file.scanPending, name: file.name })
    );
  }

  /** The file's signed link from the page's download session (a fresh one once it has expired), for the lightbox's players. */
  async function sourceOf(file: PublicTransferFile): Promise<string> {
    const url = (await fresh()).files.find((f) => f.id === file.id)?.url;
    if (!url || pendingIds.has(file.id)) throw new Error(intl.formatMessage({ id: 'recipient.notOpenableYet', defaultMessage: 'This file cannot be opened yet.' }));
    return url;
  }

  return <TransferView transfer={transfer} notices={notices} mainAction={mainAction} fileAction={fileAction} sourceOf={sourceOf} />;
}
