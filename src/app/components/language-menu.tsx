import { DEFAULT_LOCALE, LOCALE_NAMES, LOCALES, isLocale, localeOfTag } from '../../contract/locales';
import { switchLocale, useIntl } from '../lib/intl';

/** Every language we write as options of a `<select>`, each by its own name and marked with its `lang`. */
export function LanguageOptions() {
  return LOCALES.map((locale) => (
    <option key={locale} value={locale} lang={locale}>
      {LOCALE_NAMES[locale]}
    </option>
  ));
}

/**
 * The page's language, in a menu of every language by its own name (each marked with its `lang`, so a screen reader
 * says 日本語 in Japanese). Choosing one serves the page again in it and keeps it for the next pages (a cookie).
 */
export function LanguageMenu() {
  const intl = useIntl();
  // The page's language as it is rendered (on the server too, which has no document to ask).
  const current = localeOfTag(intl.locale) ?? DEFAULT_LOCALE;
  return (
    <label className="relative inline-flex h-9 items-center gap-1.5 rounded-md px-2 text-sm text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.75">
        <circle cx="12" cy="12" r="9" />
        <path d="M3 12h18M12 3c2.5 2.6 3.75 5.6 3.75 9S14.5 18.4 12 21c-2.5-2.6-3.75-5.6-3.75-9S9.5 5.6 12 3z" />
      </svg>
      <span className="sr-only">{intl.formatMessage({ id: 'language.label', defaultMessage: 'Language' })}</span>
      <select
        value={current}
        onChange={(event) => {
          if (isLocale(event.target.value) && event.target.value !== current) switchLocale(event.target.value);
        }}
        className="cursor-pointer appearance-none bg-transparent pe-1 text-sm font-medium focus:outline-none"
      >
        <LanguageOptions />
      </select>
    </label>
  );
}
