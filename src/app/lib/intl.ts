import { useContext } from 'react';
import { createIntl, createIntlCache, IntlContext, type IntlShape } from 'react-intl';
import { DEFAULT_LOCALE, formatLocale, isLocale, LOCALE_COOKIE, textDirection, type Locale } from '../../contract/locales';
import { publicPageOf } from '../../contract/public-page';
import { isCustomDomain } from './custom-domain';
import { setFormatLocale } from './format';

/**
 * The page's language (react-intl, ICU messages): English is written in the code (each message's `defaultMessage`),
 * every other language is a catalog in src/locales/app/, fetched only by a page in that language. One language per
 * page: its messages, its dates and numbers (lib/format), and its direction (`dir`), set together by `useLanguage`.
 */

export type Messages = Record<string, string>;

const catalogs = import.meta.glob<Messages>(['../../locales/app/*.json', '!../../locales/app/en.json'], { import: 'default' });
const dashboardCatalogs = import.meta.glob<Messages>(['../../locales/dashboard/*.json', '!../../locales/dashboard/en.json'], { import: 'default' });

/**
 * The catalogs a page needs in a language other than English ({} for English, whose messages are in the code): a
 * shared link's page only the pages' own (src/locales/app), any other page the dashboard's too (src/locales/areas.ts).
 */
export async function loadMessages(locale: Locale, { dashboard }: { dashboard: boolean }): Promise<Messages> {
  if (locale === DEFAULT_LOCALE) return {};
  const load = catalogs[`../../locales/app/${locale}.json`];
  const loadDashboard = dashboard ? dashboardCatalogs[`../../locales/dashboard/${locale}.json`] : undefined;
  if (!load || (dashboard && !loadDashboard)) throw new Error(`no catalog for ${locale}`);
  const [messages, dashboardMessages] = await Promise.all([load(), loadDashboard?.()]);
  return { ...messages, ...dashboardMessages };
}

/** Whether the page at `pathname` is a shared link's (a transfer's, collection's or upload request's), which loads no dashboard catalog. */
export const isSharedLinkPage = (pathname: string): boolean => publicPageOf(pathname) !== null || isCustomDomain();

const cache = createIntlCache();
let current: IntlShape = make(DEFAULT_LOCALE, {});
let dashboardLoaded = true;
/** The language the server wrote this page in (before any fallback to English), and the signed-in person's own, once a session starts here. */
let servedLocale: Locale = DEFAULT_LOCALE;
let ownLocale: Locale | null = null;

function make(formatTag: string, messages: Messages): IntlShape {
  return createIntl(
    {
      locale: formatTag,
      defaultLocale: DEFAULT_LOCALE,
      messages,
      // A message missing from a catalog is caught by its test (src/locales/catalogs.test.ts); English has no catalog.
      onError: (error) => {
        if (error.code !== 'MISSING_TRANSLATION') console.error(error);
      },
    },
    cache,
  );
}

/** The page's messages and formats, for code outside React (lib/format); components take them from `useIntl()`. */
export function currentIntl(): IntlShape {
  return current;
}

/** Makes `locale` the page's language with its catalog: messages, formats (in the reader's variant, from `languages`). */
export function applyLocale(locale: Locale, messages: Messages, languages: readonly string[]): IntlShape {
  const tag = formatLocale(locale, languages);
  setFormatLocale(tag);
  current = make(tag, messages);
  return current;
}

/** The language the server wrote on `<html lang>` for this page (its choice from the cookie and `Accept-Language`). */
export function documentLocale(): Locale {
  const lang = typeof document === 'undefined' ? null : document.documentElement.lang;
  return isLocale(lang) ? lang : DEFAULT_LOCALE;
}

/** The browser's languages, most wanted first. */
export function browserLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
}

/**
 * The reader picked another language: kept in a cookie (a year; not a secret) for the pages the server serves next,
 * and this page served again in it, rendered by the server in that language as any first visit is.
 */
export function switchLocale(locale: Locale): void {
  document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax${window.location.protocol === 'https:' ? '; Secure' : ''}`;
  document.documentElement.lang = locale;
  document.documentElement.dir = textDirection(locale);
  window.location.reload();
}

/** The page's language, its catalogs loaded and applied: what main.tsx starts the page with. */
export async function startLocale(): Promise<IntlShape> {
  const locale = documentLocale();
  servedLocale = locale;
  const dashboard = !isSharedLinkPage(window.location.pathname);
  try {
    const intl = applyLocale(locale, await loadMessages(locale, { dashboard }), browserLanguages());
    dashboardLoaded = dashboard || locale === DEFAULT_LOCALE;
    return intl;
  } catch (error) {
    // Its catalog could not be fetched (a new deployment replaced it): the page is in English rather than blank.
    console.warn(`The page is in English: the ${locale} catalog could not be loaded`, error);
    document.documentElement.lang = DEFAULT_LOCALE;
    document.documentElement.dir = 'ltr';
    dashboardLoaded = true;
    return applyLocale(DEFAULT_LOCALE, {}, browserLanguages());
  }
}

/** A session started on this page (signing in): the person's own language (Settings), which their dashboard pages are in. */
export function noteOwnLocale(locale: Locale | null | undefined): void {
  ownLocale = isLocale(locale) ? locale : null;
}

/**
 * Whether going to the page at `pathname` needs it loaded anew, as the server writes it: a dashboard page after a
 * shared link's page in a language other than English (which loaded no dashboard catalog), or after signing in
 * on a page in another language than the person chose for theirs.
 */
export function needsNewDocument(pathname: string): boolean {
  if (isSharedLinkPage(pathname)) return false;
  return !dashboardLoaded || (ownLocale !== null && ownLocale !== servedLocale);
}


/**
 * The page's messages and formats in a component: `intl.formatMessage({ id, defaultMessage }, values)`, extracted
 * into the catalogs by `npm run i18n:extract`. Outside a provider (a component's own test) the page's, in English.
 */
export function useIntl(): IntlShape {
  return useContext(IntlContext) ?? current;
}
