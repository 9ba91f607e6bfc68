import { useEffect, useState } from 'react';
import type { Guest } from '../../../../../contract/collections';
import { Button } from '../../../../components/button';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { FormError } from '../../../../components/form-error';
import { SEPARATOR } from '../../../../components/glyphs';
import { RelativeTime } from '../../../../components/relative-time';
import { useIntl } from '../../../../lib/intl';
import { useGuests } from '../../api/get-guests';
import { useRemoveGuest } from '../../api/remove-guest';
import { useUpdateGuest } from '../../api/invite-guests';
import { GuestAccessSelect } from './guest-access';

/**
 * Everyone invited, with when they were invited and last came, each removable after a
 * confirmation. The confirmation lives here, not in the row, because the row goes away with the
 * guest; so does the Remove button that had focus, so focus moves to `onRemoved`'s choice (in an
 * effect: after the confirmation's own attempt to hand focus back).
 */
export function GuestList({ collectionId, onRemoved }: { collectionId: string; onRemoved: () => void }) {
  const intl = useIntl();
  const { data: guests } = useGuests(collectionId);
  const [confirming, setConfirming] = useState<Guest | null>(null);
  const [removals, setRemovals] = useState(0);
  const update = useUpdateGuest(collectionId);
  const remove = useRemoveGuest(collectionId, {
    onRemoved: () => {
      setConfirming(null);
      setRemovals((n) => n + 1);
    },
  });
  useEffect(() => {
    if (removals > 0) onRemoved();
  }, [removals, onRemoved]);

  return (
    <>
      {guests.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({ id: 'collections.guests.none', defaultMessage: 'No guests yet. Invite people below; they keep access whatever the visibility.' })}
        </p>
      ) : (
        <ul aria-label={intl.formatMessage({ id: 'collections.guests.list', defaultMessage: 'Guests' })} className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
          {guests.map((guest) => (
            <li key={guest.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-3 py-2.5">
              <div className="min-w-0">
                <p className="text-sm font-medium break-all">{guest.email}</p>
                <p className="text-xs text-zinc-600 dark:text-zinc-400">
                  {intl.formatMessage({ id: 'collections.guests.invited', defaultMessage: 'Invited {when}' }, { when: <RelativeTime key="when" iso={guest.invitedAt} /> })}
                  {SEPARATOR}
                  {intl.formatMessage(
                    { id: 'collections.guests.lastVisit', defaultMessage: 'Last visit {when}' },
                    {
                      when: (
                        <RelativeTime key="when" iso={guest.lastVisitAt} fallback={intl.formatMessage({ id: 'collections.guests.neverVisited', defaultMessage: 'never' })} />
                      ),
                    },
                  )}
                </p>
              </div>
              <GuestAccessSelect
                collectionId={collectionId}
                label={intl.formatMessage({ id: 'collections.guests.accessLabel', defaultMessage: 'What {email} can do' }, { email: guest.email })}
                value={{ role: guest.role, uploadFolderId: guest.uploadFolderId }}
                disabled={update.isPending}
                onChange={(access) => update.mutate({ guestId: guest.id, access })}
                className="w-full sm:w-64 [&>label]:sr-only"
              />
              <Button
                variant="ghost"
                className="px-2.5 py-1 text-xs"
                aria-label={intl.formatMessage({ id: 'collections.guests.removeNamed', defaultMessage: 'Remove {email}' }, { email: guest.email })}
                onClick={() => {
                  remove.reset();
                  setConfirming(guest);
                }}
              >
                {intl.formatMessage({ id: 'collections.guests.remove', defaultMessage: 'Remove' })}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {update.error ? <FormError error={update.error} className="mt-2" /> : null}
      {confirming ? (
        <ConfirmDialog
          title={intl.formatMessage({ id: 'collections.guests.confirmTitle', defaultMessage: 'Remove {email}?' }, { email: confirming.email })}
          confirmLabel={intl.formatMessage({ id: 'collections.guests.confirm', defaultMessage: 'Remove guest' })}
          pendingLabel={intl.formatMessage({ id: 'collections.guests.removing', defaultMessage: 'Removing…' })}
          pending={remove.isPending}
          error={remove.error ? <FormError error={remove.error} /> : null}
          onConfirm={() => remove.mutate(confirming.id)}
          onCancel={() => setConfirming(null)}
        >
          {intl.formatMessage({
            id: 'collections.guests.confirmText',
            defaultMessage: 'They lose access on their next click: their sign-in and download links stop working. Inviting the address again makes them a guest anew.',
          })}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
