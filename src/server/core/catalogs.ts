import fs from 'node:fs';
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import { DEFAULT_LOCALE, type Locale } from '../../contract/locales.js';

/**
 * The server's words in a reader's language (FormatJS, ICU messages, as the pages'): English is written in the code,
 * each other language is a catalog src/locales/<area>/<locale>.json, read once when first needed. `mail` for the
 * mail it writes, `errors` for the sentences of its answers (core/sentences.ts).
 */
export type ServerCatalogArea = 'mail' | 'errors';

const catalogs = new URL('../../locales/', import.meta.url);
const cache = createIntlCache();
const made = new Map<string, IntlShape>();

/** The messages and formats of one language for one area; `formatTag` sets the formats (English mail writes en-GB dates). */
export function catalogIntl(area: ServerCatalogArea, locale: Locale, formatTag: string = locale): IntlShape {
  const key = `${area}/${locale}/${formatTag}`;
  let intl = made.get(key);
  if (!intl) {
    const messages = locale === DEFAULT_LOCALE ? {} : (JSON.parse(fs.readFileSync(new URL(`${area}/${locale}.json`, catalogs), 'utf8')) as Record<string, string>);
    intl = createIntl(
      {
        locale: formatTag,
        defaultLocale: DEFAULT_LOCALE,
        messages,
        // English has no catalog, and a message missing from another is caught by src/locales/catalogs.test.ts.
        onError: (error) => {
          if (error.code !== 'MISSING_TRANSLATION') throw error;
        },
      },
      cache,
    );
    made.set(key, intl);
  }
  return intl;
}
