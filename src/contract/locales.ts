/* Plain values, free of zod: the server picks a page's language with them, the pages offer them in their menu. */

/**
 * The languages pages and mails are written in (docs/translating.md says how to add one). English is the source:
 * its messages are the `defaultMessage`s in the code; every other language has a catalog in src/locales/.
 */
export const LOCALES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt-BR', 'pl', 'ja', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Each language by its own name, as a menu of languages shows them (a reader finds theirs without knowing ours). */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  nl: 'Nederlands',
  'pt-BR': 'Português (Brasil)',
  pl: 'Polski',
  ja: '日本語',
  ar: 'العربية',
};

/** The cookie that keeps a reader's choice from a page's language menu (read by the server for the next page it serves). */
export const LOCALE_COOKIE = 'parcel_lang';

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

export const textDirection = (locale: Locale): 'rtl' | 'ltr' => (locale === 'ar' ? 'rtl' : 'ltr');

/** The language of one tag (`de-AT` → `de`, `pt-PT` → `pt-BR`, the only Portuguese there is), or null for one we do not write. */
export function localeOfTag(tag: string): Locale | null {
  const lower = tag.trim().toLowerCase();
  const exact = LOCALES.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const language = lower.split('-')[0];
  return LOCALES.find((l) => l.split('-')[0] === language) ?? null;
}

/** An `Accept-Language` header's tags, most wanted first (`q=0` ones left out), as `navigator.languages` lists them. */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((l) => /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(l.tag) && l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((l) => l.tag);
}

/** A page's language: the reader's choice (the cookie), else the first of their browser's languages we write, else English. */
export function negotiateLocale(chosen: string | null | undefined, languages: readonly string[]): Locale {
  if (isLocale(chosen)) return chosen;
  for (const tag of languages) {
    const locale = localeOfTag(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

/**
 * The locale dates and numbers are written in: the page's language, in the reader's own variant of it when their
 * browser lists one (en-GB writes 22 Nov 2026 where en-US writes Nov 22, 2026; de-CH groups thousands with ’).
 */
export function formatLocale(locale: Locale, languages: readonly string[]): string {
  const variant = languages.find((tag) => localeOfTag(tag) === locale && tag.includes('-'));
  if (!variant || locale.includes('-')) return locale;
  try {
    return Intl.getCanonicalLocales(variant)[0] ?? locale;
  } catch {
    return locale;
  }
}
