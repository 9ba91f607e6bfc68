import { useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Passkey } from '../../../../contract/security';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormError } from '../../../components/form-error';
import { SEPARATOR } from '../../../components/glyphs';
import { ModalDialog } from '../../../components/modal-dialog';
import { TextField } from '../../../components/text-field';
import { formatDate, formatRelativeTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { passkeysSupported } from '../../auth';
import { passkeysQueryOptions, useAddPasskey, useRemovePasskey } from '../api/security-api';

/** Settings → Security: passkeys, each named, with when it was last used; sign in with one alone. */
export function PasskeysCard() {
  const intl = useIntl();
  const { data: passkeys } = useSuspenseQuery(passkeysQueryOptions());
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const remove = useRemovePasskey();
  const headingId = useId();
  const supported = passkeysSupported();
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {intl.formatMessage({ id: 'security.passkeys.heading', defaultMessage: 'Passkeys' })}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage({
          id: 'security.passkeys.lead',
          defaultMessage:
            'Sign in with your fingerprint, face or device PIN instead of a password and a code. A passkey stays on your device or in your password manager; this server keeps only its public key.',
        })}
      </p>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {passkeys.length === 0 ? (
        <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'security.passkeys.empty', defaultMessage: 'No passkeys yet.' })}</p>
      ) : (
        <ul className="mt-4 divide-y divide-zinc-200 dark:divide-zinc-800">
          {passkeys.map((p) => (
            <li key={p.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 font-medium break-words">
                  {p.name}
                  {p.backedUp ? <Badge>{intl.formatMessage({ id: 'security.passkeys.synced', defaultMessage: 'Synced' })}</Badge> : null}
                </p>
                <p className="mt-0.5 text-sm text-zinc-600 dark:text-zinc-400">
                  {intl.formatMessage({ id: 'security.passkeys.added', defaultMessage: 'Added {date}' }, { date: formatDate(p.createdAt) })}
                  {SEPARATOR}
                  {p.lastUsedAt
                    ? intl.formatMessage({ id: 'security.passkeys.lastUsed', defaultMessage: 'last used {time}' }, { time: formatRelativeTime(p.lastUsedAt) })
                    : intl.formatMessage({ id: 'security.passkeys.notUsed', defaultMessage: 'not used yet' })}
                </p>
              </div>
              <Button
                variant="secondary"
                onClick={() => setRemoving(p)}
                aria-label={intl.formatMessage({ id: 'security.passkeys.removeNamed', defaultMessage: 'Remove the passkey {name}' }, { name: p.name })}
              >
                {intl.formatMessage({ id: 'security.passkeys.remove', defaultMessage: 'Remove' })}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-4">
        {supported ? (
          <Button onClick={() => setAdding(true)}>{intl.formatMessage({ id: 'security.passkeys.add', defaultMessage: 'Add a passkey' })}</Button>
        ) : (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            {intl.formatMessage({
              id: 'security.passkeys.unsupported',
              defaultMessage: 'This browser cannot make passkeys here (they need a secure address, https or localhost).',
            })}
          </p>
        )}
      </div>
      {adding ? (
        <AddPasskeyDialog
          onClose={() => setAdding(false)}
          onAdded={(name) => {
            setAdding(false);
            setAnnouncement(intl.formatMessage({ id: 'security.passkeys.addedAnnouncement', defaultMessage: 'The passkey {name} was added.' }, { name }));
          }}
        />
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={intl.formatMessage({ id: 'security.passkeys.removeTitle', defaultMessage: 'Remove the passkey “{name}”?' }, { name: removing.name })}
          confirmLabel={intl.formatMessage({ id: 'security.passkeys.removeConfirm', defaultMessage: 'Remove' })}
          pendingLabel={intl.formatMessage({ id: 'security.passkeys.removing', defaultMessage: 'Removing…' })}
          pending={remove.isPending}
          error={remove.error ? remove.error.message : null}
          onCancel={() => setRemoving(null)}
          onConfirm={() =>
            remove.mutate(removing.id, {
              onSuccess: () => {
                setAnnouncement(intl.formatMessage({ id: 'security.passkeys.removedAnnouncement', defaultMessage: 'The passkey {name} was removed.' }, { name: removing.name }));
                setRemoving(null);
              },
            })
          }
        >
          {intl.formatMessage({
            id: 'security.passkeys.removeWarning',
            defaultMessage: 'It stops working at once, and you are signed out everywhere else. Remove it from your device or password manager too.',
          })}
        </ConfirmDialog>
      ) : null}
    </Card>
  );
}

const fields = ['name'] as const;

/** Name the passkey, then the browser's own dialog makes it. */
function AddPasskeyDialog({ onClose, onAdded }: { onClose: () => void; onAdded: (name: string) => void }) {
  const intl = useIntl();
  const add = useAddPasskey();
  const form = useValidatedForm(fields, { name: '' }, (v) => ({
    name: v.name.trim() === '' ? intl.formatMessage({ id: 'security.passkeys.nameMissing', defaultMessage: 'Name the passkey, such as “Laptop” or “Phone”' }) : undefined,
  }));
  const onSubmit = form.handleSubmit(({ name }) => add.mutate(name.trim(), { onSuccess: () => onAdded(name.trim()), onError: form.showServerErrors }));
  return (
    <ModalDialog
      title={intl.formatMessage({ id: 'security.passkeys.addTitle', defaultMessage: 'Add a passkey' })}
      description={intl.formatMessage({
        id: 'security.passkeys.addDescription',
        defaultMessage: 'Name it after the device or password manager that keeps it; your browser then asks you to confirm.',
      })}
      onClose={onClose}
      busy={add.isPending}
    >
      <form noValidate onSubmit={onSubmit} className="space-y-3">
        <FormError error={add.error} />
        <TextField label={intl.formatMessage({ id: 'security.passkeys.nameLabel', defaultMessage: 'Name' })} autoComplete="off" autoFocus {...form.field('name')} />
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={add.isPending}>
            {intl.formatMessage({ id: 'security.passkeys.cancel', defaultMessage: 'Cancel' })}
          </Button>
          <Button type="submit" disabled={add.isPending}>
            {add.isPending
              ? intl.formatMessage({ id: 'security.passkeys.waiting', defaultMessage: 'Waiting for your passkey…' })
              : intl.formatMessage({ id: 'security.passkeys.continue', defaultMessage: 'Continue' })}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
