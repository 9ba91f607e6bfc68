import { useNavigate } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { FileUploader, noUploads, type UploaderState } from '../../../components/uploader/file-uploader';
import { UploadStatus } from '../../../components/uploader/upload-status';
import { isApiRequestError } from '../../../lib/api-error';
import { formatBytes } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { useImportStatuses, type ImportToAdd, AddFromUrlButton, AddFromUrlDialog } from '../../imports';
import type { Transfer } from '../../../../contract/transfers';
import { transferQueryOptions, SentNotice, type EncryptedLink } from '../../transfers';
import type { PlanLimits } from '../api/get-plan-limits';
import { forgetDetails } from '../details-store';
import { DraftSession } from '../draft-session';
import { linkMailto } from '../encryption/mailto';
import { DraftImports, type DraftImport } from './draft-imports';
import { EarlierUploads } from './earlier-uploads';
import { EncryptionSwitch } from './encryption-switch';
import { TransferDetailsForm, type SentWith } from './transfer-details-form';

/** A file's place in the transfer: its folder path and its name. */
const pathOf = (file: { path: string | null; name: string }) => (file.path ? `${file.path}/${file.name}` : file.name);

function startSession(workspaceId: string) {
  const session = new DraftSession({ workspaceId });
  const remembered = session.remembered();
  if (remembered) session.resume(remembered);
  return { session, resumed: remembered !== null };
}

/** The full link of an encrypted transfer, with its key in the fragment (which browsers never send), and the mail to its recipients. */
function encryptedLink(transfer: Transfer, fragment: string, sentWith: SentWith): EncryptedLink {
  const url = `${transfer.url}#${fragment}`;
  const mail = {
    recipients: sentWith.recipients,
    link: url,
    title: sentWith.title,
    message: sentWith.message,
    expiresAt: transfer.expiresAt,
  };
  return {
    url,
    mailto: sentWith.recipients.length > 0 ? linkMailto(mail) : null,
    recipientCount: sentWith.recipients.length,
  };
}

/** Drop files (uploading starts at once into a draft) or add them from URLs, fill in the details, send. */
export function NewTransferPage({ workspaceId, limits }: { workspaceId: string; limits: PlanLimits }) {
  const intl = useIntl();
  const [{ session, resumed }, setSession] = useState(() => startSession(workspaceId));
  const [round, setRound] = useState(0);
  const [uploader, setUploader] = useState<UploaderState>(noUploads);
  const [draftError, setDraftError] = useState<unknown>(null);
  const [resumeDismissed, setResumeDismissed] = useState(false);
  // URL imports added in this visit, and those taken out of the draft again.
  const [added, setAdded] = useState<DraftImport[]>([]);
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  const [removing, setRemoving] = useState<{
    fileId: string;
    error: unknown;
  } | null>(null);
  const [addingFromUrl, setAddingFromUrl] = useState(false);
  const [removingEarlier, setRemovingEarlier] = useState<{
    key: string;
    error: unknown;
  } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [encrypt, setEncrypt] = useState(session.encryption !== null);
  // An encrypted transfer just sent: its link exists only here, so the page shows it instead of the transfer's page.
  const [sentEncrypted, setSentEncrypted] = useState<{
    transfer: Transfer;
    link: EncryptedLink;
  } | null>(null);
  const navigate = useNavigate();

  const startOver = useCallback(() => {
    session.forget();
    forgetDetails(workspaceId);
    const next = new DraftSession({ workspaceId });
    if (encrypt) next.setEncrypted(true);
    setSession({ session: next, resumed: false });
    setRound((r) => r + 1);
    setUploader(noUploads);
    setDraftError(null);
    setAdded([]);
    setRemoved(new Set());
    setRemoving(null);
  }, [session, workspaceId, encrypt]);

  // The draft an earlier visit left, as the server has it: files already up need not be added again,
  // and a draft that was sent or deleted since is forgotten.
  const earlier = useQuery({
    ...transferQueryOptions(session.transferId ?? ''),
    enabled: resumed && session.transferId !== null,
    retry: false,
  });
  const earlierGone =
    (isApiRequestError(earlier.error) && earlier.error.status === 404) ||
    (earlier.data !== undefined && (earlier.data.sendRequestedAt !== null || earlier.data.status !== 'active'));
  useEffect(() => {
    if (earlierGone) startOver();
  }, [earlierGone, startOver]);

  const completeOnServer = earlier.data?.files.filter((f) => f.state === 'complete').map((f) => f.id);
  // What the server says is complete is done, whatever this browser saw: the same file added again shows as uploaded.
  useEffect(() => {
    if (completeOnServer) session.markUploadedFiles(completeOnServer);
  }, [session, completeOnServer]);
  const upOnServer = new Set(completeOnServer);
  const notHeld = resumed && !resumeDismissed ? session.filesNotIn(uploader.keys) : [];
  const missing = notHeld.filter((file) => !upOnServer.has(file.fileId) && !file.uploaded);
  const alreadyUp = notHeld.filter((file) => upOnServer.has(file.fileId) || file.uploaded);
  const checkingEarlier = resumed && session.transferId !== null && earlier.isPending;
  const fileCount = uploader.fileCount + notHeld.length;

  // Imports live on the server: an earlier visit's are the draft's files that are not uploads this session knows.
  const uploadIds = new Set(session.filesNotIn([]).map((file) => file.fileId));
  const addedIds = new Set(added.map((entry) => entry.fileId));
  const earlierImports: DraftImport[] = (earlier.data?.files ?? [])
    .filter((file) => !uploadIds.has(file.id) && !addedIds.has(file.id))
    .map((file) => ({ fileId: file.id, name: file.name, source: null }));
  const imports = [...earlierImports, ...added].filter((entry) => !removed.has(entry.fileId));
  const statuses = useImportStatuses(imports.map((entry) => entry.fileId));
  const stateOf = (entry: DraftImport) => statuses.get(entry.fileId)?.status?.status;
  const failedImports = imports.filter((entry) => stateOf(entry) === 'failed').length;
  const importProgress = {
    count: imports.length - failedImports,
    importing: imports.filter((entry) => stateOf(entry) !== 'ready' && stateOf(entry) !== 'failed').length,
    failed: failedImports,
  };

  async function addImport(request: ImportToAdd) {
    const [entry] = await session.addImports([request]);
    if (!entry) return;
    setAdded((list) => [...list, { fileId: entry.fileId, name: entry.name, source: entry.source }]);
    setAnnouncement(intl.formatMessage({ id: 'send.newTransfer.importAdded', defaultMessage: '{name} added: the service is fetching it.' }, { name: entry.name }));
  }

  async function removeImport(fileId: string) {
    setRemoving({ fileId, error: null });
    try {
      await session.removeImport(fileId);
    } catch (error) {
      // Already gone is what was wanted.
      if (!(isApiRequestError(error) && error.status === 404)) {
        setRemoving({ fileId, error });
        return;
      }
    }
    setRemoving(null);
    setRemoved((ids) => new Set(ids).add(fileId));
    setAnnouncement(intl.formatMessage({ id: 'send.newTransfer.removed', defaultMessage: 'Removed from the transfer.' }));
  }

  async function removeEarlierUpload(key: string) {
    setRemovingEarlier({ key, error: null });
    try {
      await session.removeFile(key);
    } catch (error) {
      setRemovingEarlier({ key, error });
      return;
    }
    setRemovingEarlier(null);
    setAnnouncement(intl.formatMessage({ id: 'send.newTransfer.removed', defaultMessage: 'Removed from the transfer.' }));
  }

  function chooseEncryption(on: boolean) {
    session.setEncrypted(on);
    setEncrypt(on);
  }

  function sent(transfer: Transfer, sentWith: SentWith) {
    const fragment = session.encryption?.fragment;
    // Forgetting the draft forgets the link key too: from here on only the link shown below opens the files.
    session.forget();
    forgetDetails(workspaceId);
    if (transfer.e2ee && fragment) {
      setSentEncrypted({
        transfer,
        link: encryptedLink(transfer, fragment, sentWith),
      });
      return;
    }
    // The transfer's own page keeps the link, QR code and recipients through a refresh.
    void navigate({
      to: '/transfers/$transferId',
      params: { transferId: transfer.id },
      search: { sent: true },
      replace: true,
    });
  }

  if (sentEncrypted) {
    return (
      <SentNotice
        transfer={sentEncrypted.transfer}
        encrypted={sentEncrypted.link}
        onSendAnother={() => {
          setSentEncrypted(null);
          startOver();
        }}
      />
    );
  }

  const encryption = session.encryption;
  return (
    <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_24rem]">
      <section aria-labelledby="files-heading" className="min-w-0 space-y-3">
        <h2 id="files-heading" className="text-lg font-semibold">
          {intl.formatMessage({ id: 'send.newTransfer.filesHeading', defaultMessage: 'Files' })}
        </h2>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage({ id: 'send.newTransfer.maxSize', defaultMessage: 'Up to {size} per transfer.' }, { size: formatBytes(limits.transferMaxBytes) })}
          </p>
          {/* An import is fetched by the service, which would see its bytes: not for an encrypted transfer. */}
          {encryption ? null : <AddFromUrlButton onClick={() => setAddingFromUrl(true)} />}
        </div>
        <EncryptionSwitch checked={encryption !== null} disabled={session.transferId !== null || fileCount > 0} onChange={chooseEncryption} />
        {missing.length > 0 ? (
          <div
            role="region"
            aria-labelledby="resume-heading"
            className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100"
          >
            <h3 id="resume-heading" className="font-semibold">
              {intl.formatMessage({ id: 'send.newTransfer.resumeHeading', defaultMessage: 'Resume your unfinished transfer' })}
            </h3>
            <p className="mt-1">
              {intl.formatMessage({
                id: 'send.newTransfer.resumeHelp',
                defaultMessage: 'Add these files again (your browser needs you to pick them) and their uploads continue where they stopped:',
              })}
            </p>
            <ul className="mt-2 list-inside list-disc">
              {missing.map((file) => (
                <li key={file.key}>
                  {intl.formatMessage(
                    { id: 'send.newTransfer.resumeFile', defaultMessage: '{name} ({size})' },
                    { name: <bdi key="name">{pathOf(file)}</bdi>, size: formatBytes(file.size) },
                  )}
                </li>
              ))}
            </ul>
            <Button
              variant="secondary"
              className="mt-3"
              onClick={() => {
                setResumeDismissed(true);
                startOver();
              }}
            >
              {intl.formatMessage({ id: 'send.newTransfer.startOver', defaultMessage: 'Start a new transfer instead' })}
            </Button>
          </div>
        ) : null}
        <FileUploader
          key={round}
          session={session}
          label={intl.formatMessage({ id: 'send.newTransfer.uploaderLabel', defaultMessage: 'Files to send' })}
          maxTotalBytes={limits.transferMaxBytes}
          onChange={(state) => {
            setUploader(state);
            if (state.fileCount === 0) setDraftError(null);
          }}
          onRegistrationError={setDraftError}
        />
        <UploadStatus state={uploader} />
        <DraftImports imports={imports} statuses={statuses} onRemove={(fileId) => void removeImport(fileId)} removing={removing} />
        <p role="status" className="sr-only">
          {announcement}
        </p>
        <EarlierUploads files={alreadyUp} onRemove={(key) => void removeEarlierUpload(key)} removing={removingEarlier} />
        <FormError error={draftError} />
      </section>
      <section aria-labelledby="details-heading" className="space-y-3">
        <h2 id="details-heading" className="text-lg font-semibold">
          {intl.formatMessage({ id: 'send.newTransfer.detailsHeading', defaultMessage: 'Details' })}
        </h2>
        {checkingEarlier ? null : (
          <TransferDetailsForm
            key={round}
            workspaceId={workspaceId}
            transferId={session.transferId}
            upload={{
              fileCount,
              uploadedCount: uploader.uploadedCount + alreadyUp.length,
              done:
                fileCount + importProgress.count > 0 &&
                importProgress.failed === 0 &&
                !checkingEarlier &&
                missing.length === 0 &&
                (uploader.fileCount === 0 || uploader.allUploaded),
              imports: importProgress,
            }}
            limits={limits}
            encryption={encryption ? { seal: (note) => session.sealTransfer(note) } : null}
            draft={resumed ? (earlier.data ?? null) : null}
            onSent={sent}
          />
        )}
      </section>
      {addingFromUrl ? (
        <AddFromUrlDialog
          description={intl.formatMessage({
            id: 'send.newTransfer.addFromUrlHelp',
            defaultMessage: 'The service fetches the file into this transfer while you fill in the details. You can send before it is done.',
          })}
          onAdd={addImport}
          onClose={() => setAddingFromUrl(false)}
        />
      ) : null}
    </div>
  );
}
