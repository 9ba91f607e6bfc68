import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { IntlShape } from 'react-intl';
import type { NotificationSettings } from '../../../../contract/dashboard';
import type { Transfer } from '../../../../contract/transfers';
import type { TransferNote } from '../../../../crypto';
import { AddressField } from '../../../components/address-field/address-field';
import { joinAddressText, parseAddressList } from '../../../components/address-field/address-list';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { NotificationSwitches } from '../../../components/notification-switches';
import { inputClass, TextField } from '../../../components/text-field';
import { isApiRequestError } from '../../../lib/api-error';
import { setTransferLabel } from '../../../lib/transfer-labels';
import { serverFieldErrors, type FieldErrors } from '../../../lib/form-errors';
import { downloadLimitMessages } from '../../../lib/download-limit';
import { useIntl } from '../../../lib/intl';
import { notificationSettingsQueryOptions } from '../../settings';
import type { PlanLimits } from '../api/get-plan-limits';
import { usePrepareTransfer, useSaveDraftDetails, useSendTransfer } from '../api/send-transfer';
import type { TransferDetails } from '../api/transfer-drafts';
import { loadDetails, saveDetails, type PendingSend, type StoredDetails, type TypedDetails } from '../details-store';
import { daysLabel, expiresAtAfter, expiryChoices } from '../expiry';
import { recipientsError } from '../recipients';
import { DeliberateForm } from '../../../components/deliberate-form';
import { isLocale, type Locale } from '../../../../contract/locales';
import { languagesOf, RecipientLanguages } from './recipient-languages';

const fields = ['title', 'message', 'recipients', 'password', 'expiresAt', 'maxDownloads'] as const;
type Field = (typeof fields)[number];

const labelClass = 'block text-sm font-medium text-zinc-800 dark:text-zinc-200';
const hintClass = 'mt-1 text-xs text-zinc-600 dark:text-zinc-400';
const errorClass = 'mt-1 text-sm text-red-700 dark:text-red-400';
const workspaceDefaults: NotificationSettings = { downloads: true, beforeExpiry: true };

/** What is typed that the draft keeps as it is typed, and the transfers list shows (never the password). */
function savedDetails(values: {
  title: string;
  message: string;
  recipientsText: string;
  maxDownloads: string;
  recipientLanguages: Partial<Record<string, Locale>>;
}): TransferDetails {
  const limit = Number(values.maxDownloads);
  // Finished valid addresses only: the word being typed may be half an address or a name being looked up.
  const recipients = parseAddressList(values.recipientsText, { typing: true }).valid;
  return {
    title: values.title.trim() || null,
    message: values.message.trim() || null,
    recipients,
    recipientLanguages: languagesOf(recipients, values.recipientLanguages),
    ...(values.maxDownloads === '' ? { maxDownloads: null } : Number.isInteger(limit) && limit >= 1 && limit <= 1_000_000 ? { maxDownloads: limit } : {}),
  };
}

const nothingTyped = { title: '', message: '', recipientsText: '', maxDownloads: '', recipientLanguages: {} };

/** The draft's own details, as the form holds them: what the server has is what the form starts from. */
function typedFromDraft(draft: Transfer) {
  return {
    title: draft.title ?? '',
    message: draft.message ?? '',
    recipientsText: draft.recipients.length > 0 ? joinAddressText(draft.recipients, '') : '',
    maxDownloads: draft.maxDownloads === null ? '' : String(draft.maxDownloads),
    recipientLanguages: Object.fromEntries(Object.entries(draft.recipientLanguages).filter((entry): entry is [string, Locale] => isLocale(entry[1]))),
  };
}

const draftHasDetails = (draft: Transfer) => Boolean(draft.title || draft.message || draft.recipients.length > 0 || draft.maxDownloads !== null);

const MIN_PASSWORD_LENGTH = 4;
const MAX_DOWNLOAD_LIMIT = 1_000_000;

function validate(values: { password: string; maxDownloads: string }, intl: IntlShape): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {};
  if (values.password && values.password.length < MIN_PASSWORD_LENGTH) {
    errors.password = intl.formatMessage(
      { id: 'send.details.passwordTooShort', defaultMessage: 'Use at least {min, plural, one {# character} other {# characters}}.' },
      { min: MIN_PASSWORD_LENGTH },
    );
  }
  if (values.maxDownloads) {
    const n = Number(values.maxDownloads);
    if (!Number.isInteger(n) || n < 1 || n > MAX_DOWNLOAD_LIMIT) {
      errors.maxDownloads = intl.formatMessage(
        { id: 'send.details.downloadLimitInvalid', defaultMessage: 'Enter a whole number from {min, number} to {max, number}.' },
        { min: 1, max: MAX_DOWNLOAD_LIMIT },
      );
    }
  }
  return errors;
}

/** Where the uploads stand, as the page sees them. */
export interface UploadProgress {
  /** Files uploaded from this device (URL imports are counted in `imports`). */
  fileCount: number;
  uploadedCount: number;
  /** Every file of the draft is up (none missing, none failed); imports still running do not count against it. */
  done: boolean;
  imports?: ImportProgress;
}

/**
 * The draft's URL imports. Running ones do not hold Send back: the server records the transfer as
 * sent and emails recipients when the last one lands. A failed one does, until it is removed: the
 * server will not send a draft holding one.
 */
export interface ImportProgress {
  /** Imports that have not failed (running or ready). */
  count: number;
  importing: number;
  failed: number;
}

const noImports: ImportProgress = { count: 0, importing: 0, failed: 0 };

/** An end-to-end encrypted draft: the title and message are sealed into `e2eeMeta`, and recipients stay here. */
export interface SealedSending {
  /** `e2eeMeta` once every file is sealed, with the note sealed in it. */
  seal(note: TransferNote | null): Promise<string>;
}

/** What the sender typed that the server was not told (an encrypted transfer's recipients, title and message). */
export interface SentWith {
  recipients: string[];
  title: string | null;
  message: string | null;
}

/**
 * Title, message, recipients, password, expiry, download limit and notifications, applied to the
 * draft when the sender presses Send. Send works at any time once there are files: if uploads are
 * still running, the details are stored on the draft at once and it is sent when the last file is
 * up. What was typed (never the password) and a pending Send survive closing the tab.
 */
export function TransferDetailsForm({
  workspaceId,
  transferId,
  upload,
  limits,
  encryption = null,
  draft = null,
  onSent,
}: {
  workspaceId: string;
  transferId: string | null;
  /**
   * The draft as the server has it, when an earlier visit left one: its details win over what this
   * browser kept (they are saved on it as they are typed, so they differ only if changed elsewhere).
   */
  draft?: Transfer | null;
  upload: UploadProgress;
  limits: PlanLimits;
  /** Set for an end-to-end encrypted draft: no title, message, recipients or password goes to the server. */
  encryption?: SealedSending | null;
  onSent: (transfer: Transfer, sentWith: SentWith) => void;
}) {
  const intl = useIntl();
  const id = useId();
  const expiry = limits.transferExpiry;
  const choices = expiry.choosable ? expiryChoices(expiry, intl) : [];
  const [stored] = useState(() => loadDetails(workspaceId));
  const [fromDraft] = useState(() => (draft && !encryption && draftHasDetails(draft) ? typedFromDraft(draft) : null));
  const restored: Partial<TypedDetails> | null = stored?.details ? { ...stored.details, ...fromDraft } : fromDraft;
  const [title, setTitle] = useState(restored?.title ?? '');
  const [message, setMessage] = useState(restored?.message ?? '');
  const [recipientsText, setRecipientsText] = useState(restored?.recipientsText ?? '');
  const [recipientLanguages, setRecipientLanguages] = useState<Partial<Record<string, Locale>>>(restored?.recipientLanguages ?? {});
  // The last word is a name being looked up, or half an address, until a separator or Send finishes it.
  const [typingRecipient, setTypingRecipient] = useState(true);
  const [password, setPassword] = useState('');
  const [expiryDays, setExpiryDays] = useState(
    restored?.expiryDays !== undefined && choices.some((c) => String(c.days) === restored.expiryDays) ? restored.expiryDays : String(expiry.defaultDays),
  );
  const [maxDownloads, setMaxDownloads] = useState(restored?.maxDownloads ?? '');
  const [notifications, setNotifications] = useState<NotificationSettings | null>(restored?.notifications ?? null);
  // Send pressed in this visit, waiting for the uploads.
  const [pending, setPending] = useState<PendingSend | null>(null);
  // Send pressed in an earlier visit whose page closed first: said so, and sent with one click (never by itself).
  const [unsent, setUnsent] = useState<PendingSend | null>(() =>
    stored?.pending && transferId !== null && (stored.pending.transferId === null || stored.pending.transferId === transferId) ? stored.pending : null,
  );
  const passwordOnDraft = (pending ?? unsent)?.passwordOnDraft ?? false;
  const [attempted, setAttempted] = useState(false);
  const [fromServer, setFromServer] = useState<FieldErrors<Field>>({});
  const defaults = useQuery(notificationSettingsQueryOptions()).data ?? workspaceDefaults;
  const sending = useSendTransfer();
  const preparing = usePrepareTransfer();
  const { mutate: saveDraft } = useSaveDraftDetails();

  const typed: TypedDetails = { title, message, recipientsText, recipientLanguages, expiryDays, maxDownloads, notifications };
  const toStore = JSON.stringify({ details: typed, pending: pending ?? unsent });
  useEffect(() => saveDetails(workspaceId, JSON.parse(toStore) as StoredDetails), [workspaceId, toStore]);

  const recipients = parseAddressList(recipientsText, { typing: false });
  const clientErrors: FieldErrors<Field> = { ...validate({ password, maxDownloads }, intl), recipients: recipientsError(recipients, intl) };
  const errors: FieldErrors<Field> = {};
  for (const name of fields) {
    // Recipients are checked as typed (each once finished); the rest after a first attempt.
    const client =
      name === 'recipients' ? recipientsError(parseAddressList(recipientsText, { typing: typingRecipient }), intl) : attempted ? clientErrors[name] : undefined;
    errors[name] = client ?? fromServer[name];
  }

  function clearServer(name: Field) {
    setFromServer((current) => ({ ...current, [name]: undefined }));
  }

  function details(passwordOnDraft: boolean): TransferDetails {
    if (encryption) {
      // The server refuses a title, recipients or password for an encrypted transfer, and must not see the message.
      return {
        maxDownloads: maxDownloads ? Number(maxDownloads) : null,
        ...(expiry.choosable ? { expiresAt: expiresAtAfter(Number(expiryDays)) } : {}),
        ...(notifications ? { notifications } : {}),
      };
    }
    return {
      title: title.trim() || null,
      message: message.trim() || null,
      recipients: recipients.valid,
      recipientLanguages: languagesOf(recipients.valid, recipientLanguages),
      // An empty field after a pending Send keeps the password stored with it.
      ...(password || !passwordOnDraft ? { password: password || null } : {}),
      maxDownloads: maxDownloads ? Number(maxDownloads) : null,
      ...(expiry.choosable ? { expiresAt: expiresAtAfter(Number(expiryDays)) } : {}),
      ...(notifications ? { notifications } : {}),
    };
  }
  const note = { title: title.trim() || null, message: message.trim() || null };
  const sentWith: SentWith = { recipients: recipients.valid, ...note };
  function sendRequest(transferId: string, passwordOnDraft: boolean) {
    const sealedNote: TransferNote = { ...(note.title ? { title: note.title } : {}), ...(note.message ? { message: note.message } : {}) };
    const seal = encryption ? () => encryption.seal(note.title || note.message ? sealedNote : null) : undefined;
    return { transferId, details: details(passwordOnDraft), ...(seal ? { seal } : {}) };
  }
  // The send that waits for the uploads uses what is typed when it goes, not when Send was pressed.
  const latest = useRef({ sendRequest, sentWith });
  useEffect(() => {
    latest.current = { sendRequest, sentWith };
  });
  const sent = (transfer: Transfer) => onSent(transfer, latest.current.sentWith);

  function refused(error: unknown) {
    setPending(null);
    setFromServer(serverFieldErrors(error, fields));
  }

  // The draft keeps what is typed (an encrypted one cannot: the server never sees its title or recipients).
  const toSave = encryption || !transferId ? null : JSON.stringify(savedDetails({ title, message, recipientsText, maxDownloads, recipientLanguages }));
  const lastSaved = useRef(JSON.stringify(savedDetails(fromDraft ?? nothingTyped)));
  const sendingNow = pending !== null || sending.isPending || sending.isSuccess;
  useEffect(() => {
    if (toSave === null || !transferId || sendingNow || toSave === lastSaved.current) return;
    const timer = window.setTimeout(() => {
      lastSaved.current = toSave;
      saveDraft({ transferId, details: JSON.parse(toSave) as TransferDetails });
    }, 600);
    return () => window.clearTimeout(timer);
  }, [toSave, transferId, sendingNow, saveDraft]);

  // An encrypted draft's title stays in this browser: it is the transfer's label there (the list and its page show it).
  useEffect(() => {
    if (encryption && transferId && title.trim()) setTransferLabel(transferId, title);
  }, [encryption, transferId, title]);

  const imports = upload.imports ?? noImports;
  const canSend = upload.fileCount + imports.count > 0 && imports.failed === 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    setTypingRecipient(false);
    if (!canSend || pending) return;
    if (fields.some((name) => clientErrors[name])) return;
    setUnsent(null);
    if (upload.done && transferId) {
      sending.mutate(sendRequest(transferId, passwordOnDraft), { onSuccess: sent, onError: refused });
      return;
    }
    // Still uploading: store the details now (so a mistake shows at once), send when the last file is up.
    setPending({ transferId, passwordOnDraft });
    if (transferId) {
      preparing.mutate(
        { transferId, details: details(passwordOnDraft) },
        { onSuccess: () => setPending((p) => (p ? { ...p, passwordOnDraft: p.passwordOnDraft || Boolean(password) } : p)), onError: refused },
      );
    }
  }

  const ready = pending !== null && upload.done && transferId !== null && !preparing.isPending;
  useEffect(() => {
    if (!ready || !transferId || sending.isPending || sending.isSuccess || sending.isError) return;
    sending.mutate(latest.current.sendRequest(transferId, pending.passwordOnDraft), { onSuccess: sent, onError: refused });
  });

  const unplacedError = [sending.error, preparing.error].find(
    (error) => error && !(isApiRequestError(error) && Object.values(serverFieldErrors(error, fields)).some(Boolean)),
  ) ?? null;
  const notReadyReason =
    imports.failed > 0
      ? intl.formatMessage(
          {
            id: 'send.details.importsFailed',
            defaultMessage:
              '{count, plural, one {An import failed: remove it (you can add the address again) to send.} other {# imports failed: remove them (you can add the address again) to send.}}',
          },
          { count: imports.failed },
        )
      : upload.fileCount + imports.count === 0
        ? intl.formatMessage({ id: 'send.details.addFile', defaultMessage: 'Add at least one file to send.' })
        : undefined;
  const importingNote =
    imports.importing > 0
      ? intl.formatMessage(
          {
            id: 'send.details.importing',
            defaultMessage:
              '{count, plural, one {# file is} other {# files are}} still being imported from a URL: the transfer can be sent now, and recipients are emailed when the import finishes.',
          },
          { count: imports.importing },
        )
      : null;
  const sendingLabel = intl.formatMessage({ id: 'send.details.sending', defaultMessage: 'Sending…' });

  return (
    <DeliberateForm noValidate onSubmit={submit} className="space-y-5" aria-label={intl.formatMessage({ id: 'send.details.formLabel', defaultMessage: 'Transfer details' })}>
      <TextField
        label={intl.formatMessage({ id: 'send.details.title', defaultMessage: 'Title' })}
        value={title}
        maxLength={200}
        onChange={(e) => {
          setTitle(e.target.value);
          clearServer('title');
        }}
        error={errors.title}
        {...(encryption
          ? {
              hint: intl.formatMessage({
                id: 'send.details.titleEncryptedHint',
                defaultMessage: 'Encrypted with the files, like the message: only people with the link can read them.',
              }),
            }
          : {})}
      />
      <div>
        <label htmlFor={`${id}-message`} className={labelClass}>
          {intl.formatMessage({ id: 'send.details.message', defaultMessage: 'Message' })}
        </label>
        <textarea
          id={`${id}-message`}
          rows={3}
          maxLength={5000}
          className={`${inputClass} mt-1`}
          value={message}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? `${id}-message-error` : undefined}
          onChange={(e) => {
            setMessage(e.target.value);
            clearServer('message');
          }}
        />
        {errors.message ? (
          <p id={`${id}-message-error`} className={errorClass}>
            {errors.message}
          </p>
        ) : null}
      </div>
      <AddressField
        label={intl.formatMessage({ id: 'send.details.recipients', defaultMessage: 'Recipients' })}
        listLabel={
          encryption
            ? intl.formatMessage({ id: 'send.details.recipientsListEncrypted', defaultMessage: 'Will get the link from your mail app' })
            : intl.formatMessage({ id: 'send.details.recipientsList', defaultMessage: 'Will be emailed' })
        }
        value={recipientsText}
        placeholder={intl.formatMessage({ id: 'send.details.recipientsPlaceholder', defaultMessage: 'Name or email address' })}
        hint={
          encryption
            ? intl.formatMessage({
                id: 'send.details.recipientsEncryptedHint',
                defaultMessage:
                  'Not sent to the service: once sent, your own mail app opens a message to them with the link (and its key). Leave empty to share it yourself.',
              })
            : intl.formatMessage({
                id: 'send.details.recipientsHint',
                defaultMessage:
                  'Type a name, email or company to pick a contact, or email addresses separated by commas or spaces. Leave empty to share the link yourself.',
              })
        }
        error={errors.recipients}
        onChange={(text) => {
          setRecipientsText(text);
          setTypingRecipient(true);
          clearServer('recipients');
        }}
      />
      {encryption ? null : <RecipientLanguages recipients={recipients.valid} chosen={recipientLanguages} onChange={setRecipientLanguages} />}
      {encryption ? (
        <div>
          <p className={labelClass}>{intl.formatMessage({ id: 'send.details.passwordHeading', defaultMessage: 'Password' })}</p>
          <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
            {intl.formatMessage({
              id: 'send.details.passwordEncrypted',
              defaultMessage:
                'Not offered for an encrypted transfer: the key in the link is already the secret that opens the files, so share the link as carefully as you would a password.',
            })}
          </p>
        </div>
      ) : (
        <TextField
          label={intl.formatMessage({ id: 'send.details.password', defaultMessage: 'Password' })}
          type="password"
          autoComplete="new-password"
          value={password}
          hint={
            passwordOnDraft
              ? intl.formatMessage({ id: 'send.details.passwordKept', defaultMessage: 'The password you set before is kept; type a new one to change it.' })
              : intl.formatMessage({ id: 'send.details.passwordHint', defaultMessage: 'Optional. Recipients need it to download.' })
          }
          onChange={(e) => {
            setPassword(e.target.value);
            clearServer('password');
          }}
          error={errors.password}
        />
      )}
      {expiry.choosable ? (
        <div>
          <label htmlFor={`${id}-expiry`} className={labelClass}>
            {intl.formatMessage({ id: 'send.details.expiresAfter', defaultMessage: 'Expires after' })}
          </label>
          <select
            id={`${id}-expiry`}
            className={`${inputClass} mt-1`}
            value={expiryDays}
            aria-invalid={errors.expiresAt ? true : undefined}
            aria-describedby={errors.expiresAt ? `${id}-expiry-error` : undefined}
            onChange={(e) => {
              setExpiryDays(e.target.value);
              clearServer('expiresAt');
            }}
          >
            {choices.map((choice) => (
              <option key={choice.days} value={String(choice.days)}>
                {choice.label}
              </option>
            ))}
          </select>
          {errors.expiresAt ? (
            <p id={`${id}-expiry-error`} className={errorClass}>
              {errors.expiresAt}
            </p>
          ) : null}
        </div>
      ) : (
        <div>
          <p className={labelClass}>{intl.formatMessage({ id: 'send.details.expiry', defaultMessage: 'Expiry' })}</p>
          <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
            {intl.formatMessage(
              { id: 'send.details.expiryFixed', defaultMessage: 'The link expires after {period}. Paid plans can choose.' },
              { period: daysLabel(expiry.defaultDays, intl) },
            )}
          </p>
        </div>
      )}
      <TextField
        label={intl.formatMessage({ id: 'send.details.downloadLimit', defaultMessage: 'Download limit' })}
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_DOWNLOAD_LIMIT}
        value={maxDownloads}
        hint={intl.formatMessage(
          { id: 'send.details.downloadLimitHint', defaultMessage: 'Optional. The link stops opening after this many downloads. {rule}' },
          { rule: intl.formatMessage(downloadLimitMessages.rule) },
        )}
        onChange={(e) => {
          setMaxDownloads(e.target.value);
          clearServer('maxDownloads');
        }}
        error={errors.maxDownloads}
      />
      <NotificationSwitches value={notifications ?? defaults} onChange={setNotifications} />
      <div className="space-y-3">
        <FormError error={unplacedError} />
        {unsent ? (
          <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100">
            <p className="font-medium">{intl.formatMessage({ id: 'send.details.notSentYet', defaultMessage: 'Not sent yet' })}</p>
            <p className="mt-1">
              {upload.done
                ? intl.formatMessage({
                    id: 'send.details.unsentUploaded',
                    defaultMessage: 'You pressed Send, but the page was closed before the files were up. Everything is uploaded now: press Send.',
                  })
                : intl.formatMessage({
                    id: 'send.details.unsentUploading',
                    defaultMessage: 'You pressed Send, but the page was closed before the files were up. Press Send and it goes out as soon as they are.',
                  })}
            </p>
          </div>
        ) : null}
        {pending ? (
          <div role="status" className="rounded-md border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-900 dark:border-indigo-800 dark:bg-indigo-950/60 dark:text-indigo-100">
            <p className="font-medium">
              {sending.isPending ? sendingLabel : intl.formatMessage({ id: 'send.details.sendingWhenUploaded', defaultMessage: 'Sending as soon as the last file is uploaded' })}
            </p>
            {sending.isPending ? null : (
              <p className="mt-1">
                {imports.importing > 0
                  ? intl.formatMessage(
                      {
                        id: 'send.details.waitingWithImports',
                        defaultMessage:
                          '{uploaded, number} of {count, plural, one {# file} other {# files}} uploaded. Keep this page open; you can still change the details. Files still being imported from a URL do not hold it back: recipients are emailed when the last import finishes.',
                      },
                      { uploaded: upload.uploadedCount, count: upload.fileCount },
                    )
                  : intl.formatMessage(
                      {
                        id: 'send.details.waiting',
                        defaultMessage: '{uploaded, number} of {count, plural, one {# file} other {# files}} uploaded. Keep this page open; you can still change the details.',
                      },
                      { uploaded: upload.uploadedCount, count: upload.fileCount },
                    )}
              </p>
            )}
            <Button variant="secondary" className="mt-2" disabled={sending.isPending} onClick={() => setPending(null)}>
              {intl.formatMessage({ id: 'send.details.dontSendYet', defaultMessage: 'Don’t send yet' })}
            </Button>
          </div>
        ) : (
          <Button type="submit" disabled={!canSend || sending.isPending} aria-describedby={notReadyReason ? `${id}-not-ready` : undefined}>
            {sending.isPending ? sendingLabel : intl.formatMessage({ id: 'send.details.send', defaultMessage: 'Send' })}
          </Button>
        )}
        {notReadyReason ? (
          <p id={`${id}-not-ready`} className={hintClass}>
            {notReadyReason}
          </p>
        ) : !pending && !upload.done ? (
          <p className={hintClass}>
            {intl.formatMessage({ id: 'send.details.stillUploading', defaultMessage: 'Files are still uploading: press Send now and it goes out when they are done.' })}
          </p>
        ) : null}
        {importingNote && !pending && !notReadyReason ? <p className={hintClass}>{importingNote}</p> : null}
      </div>
    </DeliberateForm>
  );
}
