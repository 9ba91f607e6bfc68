import type { IntlShape } from '@formatjs/intl';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../contract/locales.js';
import { catalogIntl } from '../core/catalogs.js';

/**
 * Mail in its reader's language, with the pages' library (FormatJS, ICU messages): English is written in the code
 * (each message's `defaultMessage`, extracted by `npm run i18n:extract` into src/locales/mail/en.json), every other
 * language is a catalog src/locales/mail/<locale>.json, read once when a mail in it is first written.
 */

export type MailIntl = IntlShape;

/** English mails write dates the British way ("Sunday 22 November 2026"), which readers anywhere read alike. */
const formatTag = (locale: Locale) => (locale === DEFAULT_LOCALE ? 'en-GB' : locale);

/** The messages and formats of one language. */
export function mailIntl(locale: Locale): MailIntl {
  return catalogIntl('mail', locale, formatTag(locale));
}

/** The language a mail goes out in: the first of these that is one we write (a choice, then its defaults), else English. */
export function mailLocale(...candidates: (string | null | undefined)[]): Locale {
  return candidates.find(isLocale) ?? DEFAULT_LOCALE;
}

/** "Sunday 22 November 2026, 12:00 UTC" in the mail's language: a moment readers anywhere can place. */
export function formatMailDate(intl: MailIntl, at: Date): string {
  return intl.formatMessage({ id: 'mail.dateTime', defaultMessage: '{date}, {time} UTC', description: 'A moment, e.g. "Sunday 22 November 2026, 12:00 UTC": a mail may be read in any time zone' }, {
    date: intl.formatDate(at, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
    time: intl.formatTime(at, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }),
  });
}
