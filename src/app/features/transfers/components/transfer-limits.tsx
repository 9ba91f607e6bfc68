import { useId, useState, type FormEvent } from 'react';
import type { Me } from '../../../../contract/me';
import type { Transfer } from '../../../../contract/transfers';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { inputClass } from '../../../components/text-field';
import { downloadLimitMessages } from '../../../lib/download-limit';
import { formatDateTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { useUpdateTransfer } from '../api/update-transfer';
import { Section } from '../../../components/section';

type ExpiryLimits = Me['plan']['limits']['transferExpiry'];

/** `<input type="datetime-local">` speaks local wall-clock time without a zone: "2026-11-25T14:30". */
function toLocalInput(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function TransferLimits({ transfer, expiry }: { transfer: Transfer; expiry: ExpiryLimits }) {
  const intl = useIntl();
  const ended = transfer.status !== 'active';
  return (
    <Section title={intl.formatMessage({ id: 'transfers.limits.title', defaultMessage: 'Expiry and download limit' })}>
      {ended ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({ id: 'transfers.limits.ended', defaultMessage: 'This transfer has ended, so its expiry and download limit can no longer change.' })}
        </p>
      ) : (
        <div className="space-y-6">
          <ExpiryForm transfer={transfer} expiry={expiry} />
          <DownloadLimitForm transfer={transfer} />
        </div>
      )}
    </Section>
  );
}

function ExpiryForm({ transfer, expiry }: { transfer: Transfer; expiry: ExpiryLimits }) {
  const intl = useIntl();
  const fieldId = useId();
  const hintId = useId();
  const update = useUpdateTransfer(transfer.id);
  const [value, setValue] = useState(() => toLocalInput(Date.parse(transfer.expiresAt)));
  const [saved, setSaved] = useState(false);

  if (!expiry.choosable) {
    return (
      <div>
        <h3 className="text-sm font-medium">{intl.formatMessage({ id: 'transfers.limits.expiryHeading', defaultMessage: 'Expiry' })}</h3>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage(
            {
              id: 'transfers.limits.expiryFixed',
              defaultMessage:
                'On the free plan a transfer expires {days, plural, one {# day} other {# days}} after it is created, and that cannot be changed. A paid plan lets you choose.',
            },
            { days: expiry.defaultDays },
          )}
        </p>
      </div>
    );
  }

  const now = Date.now();
  const earliest = now + expiry.minimumSeconds * 1000;
  const latest = now + expiry.maximumDays * 86_400_000;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const ms = new Date(value).getTime();
    if (Number.isNaN(ms)) return;
    update.mutate({ expiresAt: new Date(ms).toISOString() }, { onSuccess: () => setSaved(true) });
  }

  return (
    <form onSubmit={submit} noValidate aria-label={intl.formatMessage({ id: 'transfers.limits.expiryForm', defaultMessage: 'Expiry' })}>
      <label htmlFor={fieldId} className="block text-sm font-medium">
        {intl.formatMessage({ id: 'transfers.limits.expiresAt', defaultMessage: 'Expires at' })}
      </label>
      <input
        id={fieldId}
        type="datetime-local"
        required
        value={value}
        min={toLocalInput(earliest)}
        max={toLocalInput(latest)}
        aria-describedby={hintId}
        onChange={(event) => {
          setValue(event.target.value);
          setSaved(false);
        }}
        className={`${inputClass} mt-1`}
      />
      <p id={hintId} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage(
          { id: 'transfers.limits.expiryRange', defaultMessage: 'Your plan allows from {earliest} to {latest}.' },
          { earliest: formatDateTime(new Date(earliest).toISOString()), latest: formatDateTime(new Date(latest).toISOString()) },
        )}
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Button type="submit" variant="secondary" disabled={update.isPending || value === ''}>
          {update.isPending
            ? intl.formatMessage({ id: 'transfers.limits.saving', defaultMessage: 'Saving…' })
            : intl.formatMessage({ id: 'transfers.limits.saveExpiry', defaultMessage: 'Save expiry' })}
        </Button>
        <span role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
          {saved ? intl.formatMessage({ id: 'transfers.limits.expirySaved', defaultMessage: 'Expiry saved.' }) : ''}
        </span>
      </div>
      <FormError error={update.error} className="mt-3" />
    </form>
  );
}

const maxDownloadsCeiling = 1_000_000;

function DownloadLimitForm({ transfer }: { transfer: Transfer }) {
  const intl = useIntl();
  const fieldId = useId();
  const errorId = useId();
  const ruleId = useId();
  const update = useUpdateTransfer(transfer.id);
  const [limited, setLimited] = useState(transfer.maxDownloads !== null);
  const [count, setCount] = useState(String(transfer.maxDownloads ?? Math.max(transfer.downloadCount, 10)));
  const [invalid, setInvalid] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    let maxDownloads: number | null = null;
    if (limited) {
      const n = Number(count);
      if (!Number.isInteger(n) || n < 1 || n > maxDownloadsCeiling) {
        setInvalid(
          intl.formatMessage(
            { id: 'transfers.limits.countInvalid', defaultMessage: 'Enter a whole number from {min, number} to {max, number}' },
            { min: 1, max: maxDownloadsCeiling },
          ),
        );
        return;
      }
      maxDownloads = n;
    }
    setInvalid(null);
    update.mutate({ maxDownloads }, { onSuccess: () => setSaved(true) });
  }

  return (
    <form onSubmit={submit} noValidate>
      <fieldset>
        <legend className="text-sm font-medium">{intl.formatMessage({ id: 'transfers.limits.downloadLimit', defaultMessage: 'Download limit' })}</legend>
        <div className="mt-2 space-y-2 text-sm">
          <label className="flex items-center gap-2">
            <input type="radio" name="download-limit" checked={!limited} onChange={() => setLimited(false)} />
            {intl.formatMessage({ id: 'transfers.limits.unlimited', defaultMessage: 'Unlimited' })}
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="download-limit" checked={limited} onChange={() => setLimited(true)} />
            {intl.formatMessage({ id: 'transfers.limits.limited', defaultMessage: 'Limited' })}
          </label>
        </div>
        {limited ? (
          <div className="mt-2 ps-6">
            <label htmlFor={fieldId} className="block text-sm font-medium">
              {intl.formatMessage({ id: 'transfers.limits.maxDownloads', defaultMessage: 'Maximum downloads' })}
            </label>
            <input
              id={fieldId}
              type="number"
              inputMode="numeric"
              min={1}
              max={maxDownloadsCeiling}
              step={1}
              value={count}
              aria-invalid={invalid ? true : undefined}
              aria-describedby={invalid ? `${ruleId} ${errorId}` : ruleId}
              onChange={(event) => {
                setCount(event.target.value);
                setInvalid(null);
                setSaved(false);
              }}
              className={`${inputClass} mt-1 max-w-40`}
            />
            <p id={ruleId} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
              {intl.formatMessage(downloadLimitMessages.rule)}
            </p>
            {invalid ? (
              <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-400">
                {invalid}
              </p>
            ) : null}
          </div>
        ) : null}
      </fieldset>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Button type="submit" variant="secondary" disabled={update.isPending}>
          {update.isPending
            ? intl.formatMessage({ id: 'transfers.limits.saving', defaultMessage: 'Saving…' })
            : intl.formatMessage({ id: 'transfers.limits.saveLimit', defaultMessage: 'Save limit' })}
        </Button>
        <span role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
          {saved ? intl.formatMessage({ id: 'transfers.limits.limitSaved', defaultMessage: 'Download limit saved.' }) : ''}
        </span>
      </div>
      <FormError error={update.error} className="mt-3" />
    </form>
  );
}
