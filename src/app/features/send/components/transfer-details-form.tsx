import { useId, useState, type FormEvent } from 'react';
import type { Transfer } from '../../../../contract/transfers';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { inputClass, TextField } from '../../../components/text-field';
import { isApiRequestError } from '../../../lib/api-error';
import { serverFieldErrors, type FieldErrors } from '../../../lib/form-errors';
import type { PlanLimits } from '../api/get-plan-limits';
import { useSendTransfer } from '../api/send-transfer';
import type { TransferDetails } from '../api/transfer-drafts';
import { daysLabel, expiresAtAfter, expiryChoices } from '../expiry';
import { parseRecipients, recipientsError } from '../recipients';

const fields = ['title', 'message', 'recipients', 'password', 'expiresAt', 'maxDownloads'] as const;
type Field = (typeof fields)[number];

const labelClass = 'block text-sm font-medium text-zinc-800 dark:text-zinc-200';
const hintClass = 'mt-1 text-xs text-zinc-600 dark:text-zinc-400';
const errorClass = 'mt-1 text-sm text-red-700 dark:text-red-400';

function validate(values: { password: string; maxDownloads: string }): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {};
  if (values.password && values.password.length < 4) errors.password = 'Use at least 4 characters.';
  if (values.maxDownloads) {
    const n = Number(values.maxDownloads);
    if (!Number.isInteger(n) || n < 1 || n > 1_000_000) errors.maxDownloads = 'Enter a whole number from 1 to 1,000,000.';
  }
  return errors;
}

/**
 * Title, message, recipients, password, expiry and download limit: sent with the draft when the
 * sender presses Send, which is possible once every file is uploaded.
 */
export function TransferDetailsForm({
  transferId,
  canSend,
  notReadyReason,
  limits,
  onSent,
}: {
  transferId: string | null;
  canSend: boolean;
  notReadyReason?: string;
  limits: PlanLimits;
  onSent: (transfer: Transfer) => void;
}) {
  const id = useId();
  const expiry = limits.transferExpiry;
  const choices = expiry.choosable ? expiryChoices(expiry) : [];
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [recipientsText, setRecipientsText] = useState('');
  const [password, setPassword] = useState('');
  const [expiryDays, setExpiryDays] = useState(String(expiry.defaultDays));
  const [maxDownloads, setMaxDownloads] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [fromServer, setFromServer] = useState<FieldErrors<Field>>({});
  const sending = useSendTransfer();

  const recipients = parseRecipients(recipientsText);
  const clientErrors: FieldErrors<Field> = { ...validate({ password, maxDownloads }), recipients: recipientsError(recipients) };
  const errors: FieldErrors<Field> = {};
  for (const name of fields) {
    // Recipients are checked as typed; the rest after a first attempt.
    const client = name === 'recipients' || attempted ? clientErrors[name] : undefined;
    errors[name] = client ?? fromServer[name];
  }

  function clearServer(name: Field) {
    setFromServer((current) => ({ ...current, [name]: undefined }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    if (!transferId || !canSend) return;
    if (fields.some((name) => clientErrors[name])) return;
    const details: TransferDetails = {
      title: title.trim() || null,
      message: message.trim() || null,
      recipients: recipients.valid,
      password: password || null,
      maxDownloads: maxDownloads ? Number(maxDownloads) : null,
      ...(expiry.choosable ? { expiresAt: expiresAtAfter(Number(expiryDays)) } : {}),
    };
    sending.mutate(
      { transferId, details },
      {
        onSuccess: onSent,
        onError: (error) => setFromServer(serverFieldErrors(error, fields)),
      },
    );
  }

  const unplacedError =
    sending.error && !(isApiRequestError(sending.error) && Object.values(serverFieldErrors(sending.error, fields)).some(Boolean))
      ? sending.error
      : null;

  return (
    <form noValidate onSubmit={submit} className="space-y-5" aria-label="Transfer details">
      <TextField
        label="Title"
        value={title}
        maxLength={200}
        onChange={(e) => {
          setTitle(e.target.value);
          clearServer('title');
        }}
        error={errors.title}
      />
      <div>
        <label htmlFor={`${id}-message`} className={labelClass}>
          Message
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
      <div>
        <label htmlFor={`${id}-recipients`} className={labelClass}>
          Recipients
        </label>
        <textarea
          id={`${id}-recipients`}
          rows={2}
          className={`${inputClass} mt-1`}
          value={recipientsText}
          placeholder="ada@example.com, grace@example.com"
          aria-invalid={errors.recipients ? true : undefined}
          aria-describedby={[`${id}-recipients-hint`, errors.recipients ? `${id}-recipients-error` : null].filter(Boolean).join(' ')}
          onChange={(e) => {
            setRecipientsText(e.target.value);
            clearServer('recipients');
          }}
        />
        <p id={`${id}-recipients-hint`} className={hintClass}>
          Email addresses separated by commas or spaces. Leave empty to share the link yourself.
        </p>
        {errors.recipients ? (
          <p id={`${id}-recipients-error`} className={errorClass}>
            {errors.recipients}
          </p>
        ) : null}
        {recipients.valid.length > 0 ? (
          <ul aria-label="Will be emailed" className="mt-2 flex flex-wrap gap-1.5">
            {recipients.valid.map((address) => (
              <li key={address} className="rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">
                {address}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        value={password}
        hint="Optional. Recipients need it to download."
        onChange={(e) => {
          setPassword(e.target.value);
          clearServer('password');
        }}
        error={errors.password}
      />
      {expiry.choosable ? (
        <div>
          <label htmlFor={`${id}-expiry`} className={labelClass}>
            Expires after
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
          <p className={labelClass}>Expiry</p>
          <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
            The link expires after {daysLabel(expiry.defaultDays)}. Paid plans can choose.
          </p>
        </div>
      )}
      <TextField
        label="Download limit"
        type="number"
        inputMode="numeric"
        min={1}
        max={1_000_000}
        value={maxDownloads}
        hint="Optional. The link stops working after this many downloads."
        onChange={(e) => {
          setMaxDownloads(e.target.value);
          clearServer('maxDownloads');
        }}
        error={errors.maxDownloads}
      />
      <div className="space-y-3">
        <FormError error={unplacedError} />
        <Button type="submit" disabled={!canSend || !transferId || sending.isPending} aria-describedby={!canSend && notReadyReason ? `${id}-not-ready` : undefined}>
          {sending.isPending ? 'Sending…' : 'Send'}
        </Button>
        {!canSend && notReadyReason ? (
          <p id={`${id}-not-ready`} className={hintClass}>
            {notReadyReason}
          </p>
        ) : null}
      </div>
    </form>
  );
}
