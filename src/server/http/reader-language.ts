import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { acceptedLanguages, LOCALE_COOKIE, negotiateLocale, type Locale } from '../../contract/locales.js';

/**
 * The language of a reader of the public pages: their choice from a page's menu (a cookie), else the first of their
 * browser's languages we write, else English; with the browser's languages, whose variants set the formats. The
 * pages are served in it, and what a page asks the server to mail (a guest's sign-in link) is written in it.
 */
export function readerLanguage(c: Context): { locale: Locale; languages: string[] } {
  const languages = acceptedLanguages(c.req.header('accept-language'));
  return { locale: negotiateLocale(getCookie(c, LOCALE_COOKIE), languages), languages };
}
