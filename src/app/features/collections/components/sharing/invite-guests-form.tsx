import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { AddressField } from '../../../../components/address-field/address-field';
import { parseAddressList } from '../../../../components/address-field/address-list';
import { Button } from '../../../../components/button';
import { FormError } from '../../../../components/form-error';
import { serverFieldErrors } from '../../../../lib/form-errors';
import { useIntl } from '../../../../lib/intl';
import { guestsQueryOptions } from '../../api/get-guests';
import { useInviteGuests, type GuestAccess } from '../../api/invite-guests';
import { GuestAccessSelect } from './guest-access';
import { guestAddressesProblem, MAX_INVITES } from './guest-addresses';
import { DeliberateForm } from '../../../../components/deliberate-form';

/**
 * Several addresses at once, typed or picked from the contacts, checked as they are typed: each
 * finished address becomes a chip, ready or not valid, so a typo is caught before anything is sent.
 * Repeats are sent once. The last address is judged when a separator follows it or on submit, not
 * on blur: a press on Send invites blurs the field first, and a chip or an error appearing then
 * would push the button away before the release, losing the click.
 */
export function InviteGuestsForm({ collectionId }: { collectionId: string }) {
  const intl = useIntl();
  const invite = useInviteGuests(collectionId);
  const { data: guests = [] } = useQuery(guestsQueryOptions(collectionId));
  const [text, setText] = useState('');
  const [typing, setTyping] = useState(true);
  const [attempted, setAttempted] = useState(false);
  const [invited, setInvited] = useState<string[]>([]);
  const [access, setAccess] = useState<GuestAccess>({ role: 'viewer', uploadFolderId: null });
  const field = useRef<HTMLInputElement>(null);

  const addresses = parseAddressList(text, { typing });
  const problem = guestAddressesProblem(addresses, intl);
  const known = new Set(guests.map((guest) => guest.email));
  // Before a first attempt only what is certainly wrong is said; an empty field is not an error yet.
  const shownProblem = attempted || addresses.invalid.length > 0 || addresses.valid.length > MAX_INVITES ? problem : undefined;
  const serverProblem = serverFieldErrors(invite.error, ['emails'] as const).emails;
  const error = shownProblem ?? serverProblem;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const final = parseAddressList(text, { typing: false });
    setTyping(false);
    setAttempted(true);
    setInvited([]);
    if (guestAddressesProblem(final, intl)) {
      field.current?.focus();
      return;
    }
    invite.mutate({ emails: final.valid, access }, {
      onSuccess: (addresses) => {
        setInvited(addresses);
        setText('');
        setTyping(true);
        setAttempted(false);
      },
      onError: () => field.current?.focus(),
    });
  }

  return (
    <DeliberateForm noValidate onSubmit={onSubmit} className="space-y-3">
      <AddressField
        ref={field}
        label={intl.formatMessage({ id: 'collections.invite.label', defaultMessage: 'Invite guests' })}
        listLabel={intl.formatMessage({ id: 'collections.invite.listLabel', defaultMessage: 'Addresses to invite' })}
        value={text}
        placeholder={intl.formatMessage({ id: 'collections.invite.placeholder', defaultMessage: 'Name or email address' })}
        hint={intl.formatMessage(
          {
            id: 'collections.invite.hint',
            defaultMessage:
              'Type a name, email or company to pick a contact, or email addresses separated by commas or spaces; up to {max, number} at once. Each is mailed the link, and signs in on the collection’s page with a one-time link sent to that address.',
          },
          { max: MAX_INVITES },
        )}
        error={error}
        noteFor={(address) => (known.has(address) ? intl.formatMessage({ id: 'collections.invite.alreadyGuest', defaultMessage: 'already a guest, mailed again' }) : undefined)}
        onChange={(next) => {
          setText(next);
          setTyping(true);
          setInvited([]);
          invite.reset();
        }}
      />
      {addresses.valid.length + addresses.invalid.length > 0 ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {addresses.duplicates > 0
            ? intl.formatMessage(
                {
                  id: 'collections.invite.readyWithRepeats',
                  defaultMessage: '{count, plural, one {# address} other {# addresses}} ready, {repeats, plural, one {# repeat} other {# repeats}} left out.',
                },
                { count: addresses.valid.length, repeats: addresses.duplicates },
              )
            : intl.formatMessage(
                { id: 'collections.invite.ready', defaultMessage: '{count, plural, one {# address} other {# addresses}} ready.' },
                { count: addresses.valid.length },
              )}
        </p>
      ) : null}

      <GuestAccessSelect
        collectionId={collectionId}
        label={intl.formatMessage({ id: 'collections.invite.accessLabel', defaultMessage: 'They can' })}
        value={access} onChange={setAccess} className="max-w-md" />

      {invite.error && !serverProblem ? <FormError error={invite.error} /> : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="secondary" disabled={invite.isPending}>
          {invite.isPending
            ? intl.formatMessage({ id: 'collections.invite.sending', defaultMessage: 'Sending invites…' })
            : intl.formatMessage({ id: 'collections.invite.send', defaultMessage: 'Send invites' })}
        </Button>
        <p role="status" className="min-w-0 text-sm break-words text-emerald-700 dark:text-emerald-400">
          {invited.length > 0
            ? intl.formatMessage({ id: 'collections.invite.invited', defaultMessage: 'Invited {addresses}.' }, { addresses: intl.formatList(invited, { type: 'unit' }) })
            : null}
        </p>
      </div>
    </DeliberateForm>
  );
}
