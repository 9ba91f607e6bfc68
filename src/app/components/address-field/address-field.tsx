import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  useId,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type Ref,
} from 'react';
import type { Contact } from '../../../contract/contacts';
import { isApiRequestError } from '../../lib/api-error';
import { contactKeys, contactsQueryOptions, useCreateContact } from '../../lib/contacts';
import { useIntl } from '../../lib/intl';
import { SEPARATOR } from '../glyphs';
import { FormField } from '../text-field';
import { addressKey, joinAddressText, normalizeAddress, splitAddressText } from './address-list';
import { contactName } from '../../lib/contacts';
import { findMatch, matchContacts } from './contact-matches';

interface AddressFieldProps {
  label: string;
  /** The addresses as one text, separated by commas, semicolons or spaces: what the form keeps, parses and stores. */
  value: string;
  onChange: (text: string) => void;
  /** Names the list of finished addresses (the chips), e.g. "Will be emailed". */
  listLabel: string;
  /** A few words after a valid address's chip, e.g. "already a guest, mailed again". */
  noteFor?: (address: string) => string | undefined;
  hint?: ReactNode;
  /** Shown under the field and tied to it; marks it invalid. */
  error?: string | undefined;
  placeholder?: string;
  className?: string;
  /** The text input, for a form that moves focus back to the field. */
  ref?: Ref<HTMLInputElement>;
}

interface Chip {
  /** The normal form of a valid address, or the words as typed. */
  key: string;
  valid: boolean;
}

/** Between words that are separate messages or values (a space is not a word to translate). */
const SPACE = ' ';

const SEPARATOR_AT_END = /[\s,;]$/;
const HAS_SEPARATOR = /[\s,;]/;

/** The finished addresses, each once (repeats collapse the way the forms count them), in the order typed. */
function chipsOf(finished: string[]): Chip[] {
  const seen = new Set<string>();
  const chips: Chip[] = [];
  for (const word of finished) {
    const normal = normalizeAddress(word);
    const key = normal ?? word;
    if (seen.has(key)) continue;
    seen.add(key);
    chips.push({ key, valid: normal !== null });
  }
  return chips;
}

/** Text with the part matching `query` emphasised; rendered as text, never as markup (contacts' names come from anyone with an API key). */
function Emphasised({ text, query }: { text: string; query: string }) {
  const match = findMatch(text, query);
  if (!match) return <>{text}</>;
  return (
    <>
      {text.slice(0, match.start)}
      <mark className="rounded-sm bg-indigo-100 text-inherit dark:bg-indigo-900/70">{text.slice(match.start, match.end)}</mark>
      {text.slice(match.end)}
    </>
  );
}

const iconButtonClass =
  'inline-flex size-6 shrink-0 items-center justify-center rounded-full text-current opacity-80 hover:bg-black/10 hover:opacity-100 disabled:cursor-wait disabled:opacity-50 dark:hover:bg-white/15';

function PersonIcon({ plus = false, label }: { plus?: boolean; label?: string }) {
  return (
    <svg
      viewBox="0 0 16 16"
      width="14"
      height="14"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      className="shrink-0"
    >
      <circle cx={plus ? 6 : 8} cy="5" r="2.75" />
      <path d={plus ? 'M1.5 14c0-2.5 2-4.25 4.5-4.25s4.5 1.75 4.5 4.25' : 'M3 14c0-2.75 2.25-4.5 5-4.5s5 1.75 5 4.5'} />
      {plus ? <path d="M13 4v5M10.5 6.5h5" /> : null}
    </svg>
  );
}

/**
 * Where addresses are typed (a transfer's recipients, a collection's guests). Finished addresses
 * show as chips (the contact's name beside a known address, an invalid one marked in words), and
 * the word being typed is looked up among the workspace's contacts by name, email or company: an
 * ARIA combobox whose listbox is picked from with the arrows and Enter or Tab, or a click, while
 * focus stays in the input. Enter with no contact highlighted finishes the typed address into a chip;
 * it never submits the form around the field. A valid address that is not a contact yet is saved as one with a click.
 *
 * The value stays the plain text the forms have always kept (so they parse, check and store it as
 * before): the field only reads it as chips plus a draft, and writes it back.
 */
export function AddressField({ label, value, onChange, listLabel, noteFor, hint, error, placeholder, className = '', ref }: AddressFieldProps) {
  const intl = useIntl();
  const id = useId();
  const listboxId = `${id}-suggestions`;
  const inputRef = useRef<HTMLInputElement>(null);
  useImperativeHandle(ref, () => inputRef.current!, []);
  // The contacts page's cached list; never suspends, and until it has loaded nobody knows which addresses are contacts already.
  const contactsQuery = useQuery(contactsQueryOptions());
  const contacts = useMemo(() => contactsQuery.data ?? [], [contactsQuery.data]);
  const contactsKnown = contactsQuery.isSuccess;
  const createContact = useCreateContact();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [saving, setSaving] = useState<ReadonlySet<string>>(new Set());
  // Saved here, shown as contacts before the list is fetched again.
  const [saved, setSaved] = useState<ReadonlySet<string>>(new Set());
  const [saveProblem, setSaveProblem] = useState<{ address: string; message: string } | null>(null);
  const [notice, setNotice] = useState('');

  const { head, finished, draft } = splitAddressText(value);
  const chips = chipsOf(finished);
  const contactByEmail = useMemo(() => new Map(contacts.map((contact) => [contact.email.toLowerCase(), contact])), [contacts]);
  const chosen = new Set(chips.map((chip) => chip.key));
  const suggestions = open ? matchContacts(contacts, draft, chosen) : [];
  const expanded = suggestions.length > 0;
  const activeIndex = active < suggestions.length ? active : -1;
  const optionId = (contact: Contact) => `${listboxId}-${contact.id}`;

  function focusInput() {
    inputRef.current?.focus();
  }

  function closeList() {
    setOpen(false);
    setActive(-1);
  }

  function write(text: string) {
    setNotice('');
    onChange(text);
  }

  function typeDraft(next: string) {
    // Separators typed with nothing before them finish nothing: the text stays as it was.
    if (!draft && !next.trim().replace(/[,;]/g, '')) return;
    // Several characters at once holding a separator (autofill, a test's fill(), a dropped text) is a list: every address in it is finished.
    const list = next.length - draft.length > 1 && HAS_SEPARATOR.test(next.trim());
    const text = head + next;
    write(list && !SEPARATOR_AT_END.test(text) ? `${text}, ` : text);
    if (list) closeList();
    else {
      setOpen(true);
      setActive(-1);
    }
  }

  function paste(event: ClipboardEvent<HTMLInputElement>) {
    const pasted = event.clipboardData.getData('text');
    // One address is typed in as usual (and looked up); a list, new lines included, which a text input would strip, becomes chips.
    if (!HAS_SEPARATOR.test(pasted.trim())) return;
    event.preventDefault();
    const input = event.currentTarget;
    const start = input.selectionStart ?? draft.length;
    const end = input.selectionEnd ?? draft.length;
    const text = head + draft.slice(0, start) + pasted + draft.slice(end);
    write(SEPARATOR_AT_END.test(text) ? text : `${text}, `);
    closeList();
  }

  function finishDraft() {
    write(`${head}${draft.trim()}, `);
    closeList();
  }

  function pick(contact: Contact) {
    write(`${head}${contact.email}, `);
    closeList();
    focusInput();
  }

  function remove(chip: Chip) {
    // Every repeat of the address goes with its chip.
    const kept = finished.filter((word) => addressKey(word) !== chip.key);
    write(joinAddressText(kept, draft));
    if (saveProblem?.address === chip.key) setSaveProblem(null);
    focusInput();
  }

  async function save(address: string, button: HTMLButtonElement) {
    setSaving((current) => new Set(current).add(address));
    setSaveProblem(null);
    let done = false;
    try {
      await createContact.mutateAsync({ email: address });
      done = true;
    } catch (problem) {
      if (isApiRequestError(problem) && problem.status === 409) {
        // Already a contact (added in another tab, or by the API): saved all the same; the list is stale.
        done = true;
        void queryClient.invalidateQueries({ queryKey: contactKeys.all });
      } else {
        setSaveProblem({
          address,
          message: problem instanceof Error ? problem.message : intl.formatMessage({ id: 'common.addressField.saveFailed', defaultMessage: 'Something went wrong.' }),
        });
      }
    } finally {
      setSaving((current) => {
        const next = new Set(current);
        next.delete(address);
        return next;
      });
    }
    if (!done) return;
    setSaved((current) => new Set(current).add(address));
    setNotice(intl.formatMessage({ id: 'common.addressField.saved', defaultMessage: 'Saved {address} as a contact.' }, { address }));
    // The button goes away with the save: focus that was on it moves to the field, not to the page's top.
    if (document.activeElement === button) focusInput();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    // Keys that confirm an input method's composition (Enter for a Japanese name) are the input method's, not the list's.
    if (event.nativeEvent.isComposing) return;
    const count = suggestions.length;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        const available = expanded ? count : matchContacts(contacts, draft, chosen).length;
        if (available === 0) return;
        event.preventDefault();
        const down = event.key === 'ArrowDown';
        setOpen(true);
        if (!expanded) setActive(event.altKey ? -1 : down ? 0 : available - 1);
        else setActive(down ? (activeIndex + 1) % count : activeIndex <= 0 ? count - 1 : activeIndex - 1);
        return;
      }
      case 'Enter':
        // Enter never sends the form around the field: it picks the highlighted contact, or finishes the
        // address being typed into a chip (as a comma or a space does), or, with nothing typed, does nothing.
        event.preventDefault();
        if (expanded && activeIndex >= 0) pick(suggestions[activeIndex]!);
        else if (draft.trim()) finishDraft();
        else closeList();
        return;
      case 'Tab':
        if (!expanded || activeIndex < 0 || event.shiftKey) return;
        event.preventDefault();
        pick(suggestions[activeIndex]!);
        return;
      case 'Escape':
        // Only an open list is this field's to close; otherwise Escape belongs to whatever holds the field (a dialog).
        if (!expanded) return;
        event.preventDefault();
        event.stopPropagation();
        closeList();
        return;
      case 'Backspace': {
        const input = event.currentTarget;
        const last = chips.at(-1);
        if (draft || input.selectionStart !== 0 || input.selectionEnd !== 0 || !last) return;
        event.preventDefault();
        remove(last);
        return;
      }
    }
  }

  function focusFromBackground(event: MouseEvent<HTMLElement>) {
    // A click on the box around the chips (not on a chip's button) lands in the input, as it would in a plain text field.
    if (event.target === event.currentTarget || (event.target as HTMLElement).dataset.chips !== undefined) focusInput();
  }

  const status = expanded
    ? intl.formatMessage(
        {
          id: 'common.addressField.matches',
          defaultMessage: '{count, plural, one {# contact matches} other {# contacts match}}. Up and down arrows to choose, Enter to pick.',
        },
        { count: suggestions.length },
      )
    : notice;

  return (
    <FormField label={label} error={error} hint={hint} className={className}>
      {(control) => (
        <div className="relative mt-1">
          <div
            onClick={focusFromBackground}
            className={`flex w-full cursor-text flex-wrap items-center gap-1.5 rounded-md border bg-white px-2 py-1.5 text-sm text-zinc-900 shadow-xs has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-indigo-600 dark:bg-zinc-900 dark:text-zinc-100 dark:has-[input:focus-visible]:outline-indigo-400 ${
              error ? 'border-red-600 dark:border-red-400' : 'border-zinc-300 dark:border-zinc-700'
            }`}
          >
            {chips.length > 0 ? (
              <ul aria-label={listLabel} data-chips="" className="flex max-w-full min-w-0 flex-wrap gap-1.5">
                {chips.map((chip) => {
                  const contact = chip.valid ? contactByEmail.get(chip.key) : undefined;
                  const isContact = contact !== undefined || saved.has(chip.key);
                  const name = contact ? contactName(contact) || contact.company : '';
                  const note = chip.valid ? noteFor?.(chip.key) : undefined;
                  const canSave = chip.valid && contactsKnown && !isContact;
                  return (
                    <li
                      key={chip.key}
                      className={`inline-flex max-w-full min-w-0 items-center gap-1 rounded-full py-0.5 ps-2.5 pe-0.5 text-xs ring-1 ring-inset ${
                        chip.valid
                          ? 'bg-zinc-100 text-zinc-800 ring-zinc-300 dark:bg-zinc-800 dark:text-zinc-200 dark:ring-zinc-700'
                          : 'bg-red-50 text-red-800 ring-red-300 dark:bg-red-950/60 dark:text-red-200 dark:ring-red-800'
                      }`}
                    >
                      {isContact ? <PersonIcon label={intl.formatMessage({ id: 'common.addressField.contact', defaultMessage: 'Contact' })} /> : null}
                      <span className="min-w-0 break-all">
                        {name ? (
                          <>
                            <span className="font-medium">{name}</span> <span className="text-zinc-600 dark:text-zinc-400">{chip.key}</span>
                          </>
                        ) : (
                          chip.key
                        )}
                        {note ? (
                          <span className="text-zinc-600 dark:text-zinc-400">
                            {SPACE}
                            {intl.formatMessage({ id: 'common.addressField.note', defaultMessage: '– {note}' }, { note })}
                          </span>
                        ) : null}
                        {chip.valid ? null : (
                          <span className="font-medium">
                            {SPACE}
                            {intl.formatMessage({ id: 'common.addressField.notValid', defaultMessage: '– not valid' })}
                          </span>
                        )}
                      </span>
                      {canSave ? (
                        <button
                          type="button"
                          className={iconButtonClass}
                          aria-label={intl.formatMessage({ id: 'common.addressField.saveNamed', defaultMessage: 'Save {address} as contact' }, { address: chip.key })}
                          title={intl.formatMessage({ id: 'common.addressField.save', defaultMessage: 'Save as contact' })}
                          disabled={saving.has(chip.key)}
                          onClick={(event) => void save(chip.key, event.currentTarget)}
                        >
                          <PersonIcon plus />
                        </button>
                      ) : null}
                      <button
                        type="button"
                        className={iconButtonClass}
                        aria-label={intl.formatMessage({ id: 'common.addressField.removeNamed', defaultMessage: 'Remove {address}' }, { address: chip.key })}
                        title={intl.formatMessage({ id: 'common.addressField.remove', defaultMessage: 'Remove' })}
                        onClick={() => remove(chip)}
                      >
                        <svg
                          viewBox="0 0 16 16"
                          width="12"
                          height="12"
                          aria-hidden="true"
                          fill="none"
                          stroke="currentColor"
                          strokeWidth="1.75"
                          strokeLinecap="round"
                        >
                          <path d="M4 4l8 8M12 4l-8 8" />
                        </svg>
                      </button>
                    </li>
                  );
                })}
              </ul>
            ) : null}
            <input
              {...control}
              ref={inputRef}
              type="text"
              role="combobox"
              aria-autocomplete="list"
              aria-expanded={expanded}
              aria-controls={listboxId}
              aria-activedescendant={expanded && activeIndex >= 0 ? optionId(suggestions[activeIndex]!) : undefined}
              value={draft}
              placeholder={chips.length > 0 ? undefined : placeholder}
              spellCheck={false}
              autoCapitalize="off"
              autoComplete="off"
              autoCorrect="off"
              onChange={(event) => typeDraft(event.target.value)}
              onPaste={paste}
              onKeyDown={onKeyDown}
              onBlur={closeList}
              className="min-w-32 flex-1 bg-transparent px-1 py-1 outline-none placeholder:text-zinc-400 focus-visible:outline-none"
            />
          </div>
          <ul
            role="listbox"
            id={listboxId}
            aria-label={intl.formatMessage({ id: 'common.addressField.suggestions', defaultMessage: 'Suggested contacts' })}
            hidden={!expanded}
            // The input keeps focus (and its caret) while the pointer picks or scrolls the list.
            onMouseDown={(event) => event.preventDefault()}
            className="absolute inset-x-0 top-full z-20 mt-1 max-h-72 overflow-y-auto rounded-md border border-zinc-200 bg-white py-1 text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
          >
            {suggestions.map((contact, index) => {
              const name = contactName(contact);
              return (
                <li
                  key={contact.id}
                  id={optionId(contact)}
                  role="option"
                  aria-selected={index === activeIndex}
                  onMouseMove={() => index !== activeIndex && setActive(index)}
                  onClick={() => pick(contact)}
                  className="min-h-6 cursor-pointer px-3 py-2 aria-selected:bg-indigo-50 dark:aria-selected:bg-indigo-950"
                >
                  <span className="block font-medium break-words">
                    <Emphasised text={name || contact.email} query={draft} />
                  </span>{SPACE}
                  <span className="block text-xs break-all text-zinc-600 dark:text-zinc-400">
                    {name ? <Emphasised text={contact.email} query={draft} /> : null}
                    {name && contact.company ? SEPARATOR : null}
                    {contact.company ? <Emphasised text={contact.company} query={draft} /> : null}
                  </span>
                </li>
              );
            })}
          </ul>
          <div aria-live="polite" aria-atomic="true" className="sr-only">
            {status}
          </div>
          {saveProblem ? (
            <p role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
              {intl.formatMessage(
                { id: 'common.addressField.saveProblem', defaultMessage: 'Could not save {address} as a contact: {problem}' },
                { address: <bdi key="address">{saveProblem.address}</bdi>, problem: saveProblem.message },
              )}
            </p>
          ) : null}
        </div>
      )}
    </FormField>
  );
}
