import { useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { isLocale, LOCALE_NAMES, type Locale } from '../../../../contract/locales';
import { LanguageOptions } from '../../../components/language-menu';
import { contactsQueryOptions } from '../../../lib/contacts';
import { useIntl } from '../../../lib/intl';

/** Between the summary's words and its state (a space is not a word to translate). */
const SPACE = ' ';

/** The languages chosen for these recipients only (a recipient removed takes their choice with them). */
export function languagesOf(recipients: readonly string[], chosen: Partial<Record<string, Locale>>): Record<string, Locale> {
  const languages: Record<string, Locale> = {};
  for (const address of recipients) {
    const language = chosen[address];
    if (language) languages[address] = language;
  }
  return languages;
}

/**
 * The language each recipient's mail is written in: nothing to do by default (their contact's language, else the
 * sender's own), one choice per recipient when it should be another. Folded away until opened: most senders never
 * need it.
 */
export function RecipientLanguages({
  recipients,
  chosen,
  onChange,
}: {
  recipients: readonly string[];
  chosen: Partial<Record<string, Locale>>;
  onChange: (next: Partial<Record<string, Locale>>) => void;
}) {
  const intl = useIntl();
  const id = useId();
  const contacts = useQuery(contactsQueryOptions()).data;
  const contactLanguage = useMemo(
    () => new Map((contacts ?? []).flatMap((contact) => (isLocale(contact.language) ? [[contact.email.toLowerCase(), contact.language] as const] : []))),
    [contacts],
  );
  if (recipients.length === 0) return null;
  const count = Object.keys(languagesOf(recipients, chosen)).length;
  return (
    <details className="rounded-md border border-zinc-200 px-3 py-2 text-sm dark:border-zinc-800">
      <summary className="cursor-pointer font-medium text-zinc-800 dark:text-zinc-200">
        {intl.formatMessage({ id: 'send.recipientLanguages.summary', defaultMessage: 'Language of their mail' })}
        {SPACE}
        <span className="font-normal text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage(
            { id: 'send.recipientLanguages.state', defaultMessage: '– {count, plural, =0 {each in their contact’s language, else yours} other {# chosen}}' },
            { count },
          )}
        </span>
      </summary>
      <ul className="mt-2 space-y-2">
        {recipients.map((address, index) => {
          const fallback = contactLanguage.get(address);
          return (
            <li key={address} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
              <label htmlFor={`${id}-${index}`} className="min-w-0 break-all text-zinc-800 dark:text-zinc-200">
                {address}
              </label>
              <select
                id={`${id}-${index}`}
                value={chosen[address] ?? ''}
                onChange={(event) => onChange({ ...chosen, [address]: isLocale(event.target.value) ? event.target.value : undefined })}
                className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
              >
                <option value="">
                  {fallback
                    ? intl.formatMessage({ id: 'send.recipientLanguages.contactLanguage', defaultMessage: '{language} (their contact’s)' }, { language: LOCALE_NAMES[fallback] })
                    : intl.formatMessage({ id: 'send.recipientLanguages.sameAsYours', defaultMessage: 'The same as yours' })}
                </option>
                <LanguageOptions />
              </select>
            </li>
          );
        })}
      </ul>
    </details>
  );
}
