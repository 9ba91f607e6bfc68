import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../../components/button';
import { FormError } from '../../../../components/form-error';
import { inputClass } from '../../../../components/text-field';
import { isApiRequestError } from '../../../../lib/api-error';
import { plural } from '../../../../lib/format';
import { guestsQueryOptions } from '../../api/get-guests';
import { useInviteGuests } from '../../api/invite-guests';
import { guestAddressesProblem, MAX_INVITES, parseGuestAddresses } from './guest-addresses';

/**
 * Several addresses at once, checked as they are typed: each finished address appears below as
 * ready or not valid, so a typo is caught before anything is sent. Repeats are sent once. The last
 * address is judged when a separator follows it or on submit, not on blur: a press on Send invites
 * blurs the field first, and its chip appearing then would push the button away before the release,
 * losing the click.
 */
export function InviteGuestsForm({ collectionId }: { collectionId: string }) {
  const invite = useInviteGuests(collectionId);
  const { data: guests = [] } = useQuery(guestsQueryOptions(collectionId));
  const [text, setText] = useState('');
  const [typing, setTyping] = useState(true);
  const [attempted, setAttempted] = useState(false);
  const [invited, setInvited] = useState<string[]>([]);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const id = useId();

  const addresses = parseGuestAddresses(text, { typing });
  const problem = guestAddressesProblem(addresses);
  const known = new Set(guests.map((guest) => guest.email));
  // Before a first attempt only what is certainly wrong is said; an empty field is not an error yet.
  const shownProblem = attempted || addresses.invalid.length > 0 || addresses.valid.length > MAX_INVITES ? problem : undefined;
  const serverProblem = isApiRequestError(invite.error) && invite.error.fieldErrors.length > 0 ? invite.error.fieldErrors[0]!.message : undefined;
  const error = shownProblem ?? serverProblem;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const final = parseGuestAddresses(text, { typing: false });
    setTyping(false);
    setAttempted(true);
    setInvited([]);
    if (guestAddressesProblem(final)) {
      textarea.current?.focus();
      return;
    }
    invite.mutate(final.valid, {
      onSuccess: (addresses) => {
        setInvited(addresses);
        setText('');
        setTyping(true);
        setAttempted(false);
      },
      onError: () => textarea.current?.focus(),
    });
  }

  const describedBy = [`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-3">
      <div>
        <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          Invite guests
        </label>
        <textarea
          id={id}
          ref={textarea}
          rows={3}
          value={text}
          placeholder="ada@example.com, grace@example.org"
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setText(event.target.value);
            setTyping(true);
            setInvited([]);
            invite.reset();
          }}
          className={`${inputClass} mt-1 resize-y`}
        />
        <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          Email addresses separated by commas, spaces or new lines; up to {MAX_INVITES} at once. Each is mailed the link, and signs in on the collection’s page
          with a one-time link sent to that address.
        </p>
        {error ? (
          <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        ) : null}
      </div>

      {addresses.valid.length + addresses.invalid.length > 0 ? (
        <div>
          <ul aria-label="Addresses to invite" className="flex flex-wrap gap-1.5">
            {addresses.invalid.map((address) => (
              <li
                key={`invalid:${address}`}
                className="max-w-full rounded-full bg-red-50 px-2.5 py-0.5 text-xs break-all text-red-800 ring-1 ring-red-300 ring-inset dark:bg-red-950/60 dark:text-red-200 dark:ring-red-800"
              >
                {address}
                <span className="font-medium"> – not valid</span>
              </li>
            ))}
            {addresses.valid.map((address) => (
              <li
                key={`valid:${address}`}
                className="max-w-full rounded-full bg-zinc-100 px-2.5 py-0.5 text-xs break-all text-zinc-800 ring-1 ring-zinc-300 ring-inset dark:bg-zinc-800 dark:text-zinc-200 dark:ring-zinc-700"
              >
                {address}
                {known.has(address) ? <span className="text-zinc-600 dark:text-zinc-400"> – already a guest, mailed again</span> : null}
              </li>
            ))}
          </ul>
          <p className="mt-1.5 text-xs text-zinc-600 dark:text-zinc-400">
            {plural(addresses.valid.length, 'address', 'addresses')} ready
            {addresses.duplicates > 0 ? `, ${plural(addresses.duplicates, 'repeat', 'repeats')} left out` : ''}.
          </p>
        </div>
      ) : null}

      {invite.error && !serverProblem ? <FormError error={invite.error} /> : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="secondary" disabled={invite.isPending}>
          {invite.isPending ? 'Sending invites…' : 'Send invites'}
        </Button>
        <p role="status" className="min-w-0 text-sm break-words text-emerald-700 dark:text-emerald-400">
          {invited.length > 0 ? `Invited ${invited.join(', ')}.` : ''}
        </p>
      </div>
    </form>
  );
}
