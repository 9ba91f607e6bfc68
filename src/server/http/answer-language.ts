import type { Context } from 'hono';
import { acceptedLanguages, DEFAULT_LOCALE, negotiateLocale, type Locale } from '../../contract/locales.js';
import { catalogIntl } from '../core/catalogs.js';
import type { ApiError } from '../core/errors.js';
import { writtenValues, type Sentence } from '../core/sentences.js';

/**
 * The language of an answer's sentences: the first of the request's `Accept-Language` we write, else English. The
 * app states its page's language on every call (src/app/lib/http.ts), so a dashboard in Polish gets its refusals in
 * Polish; an API client that states none gets English. Only the message is translated: `code` and `details` are the
 * same in every language, for programs to read.
 */
export function answerLanguage(c: Context): Locale {
  return negotiateLocale(null, acceptedLanguages(c.req.header('accept-language')));
}

/** An error's message in the answer's language, and that language (English when it was not said as a translatable sentence). */
export function messageIn(err: ApiError, locale: Locale): { message: string; locale: Locale } {
  if (!err.sentence || locale === DEFAULT_LOCALE) return { message: err.message, locale: DEFAULT_LOCALE };
  const intl = catalogIntl('errors', locale);
  // Called by another name: the extractor reads only literal descriptors, which this one is not.
  const { formatMessage: format } = intl;
  const write = (sentence: Sentence): string => format({ id: sentence.id, defaultMessage: sentence.defaultMessage }, writtenValues(sentence.values, write));
  return { message: write(err.sentence), locale };
}
