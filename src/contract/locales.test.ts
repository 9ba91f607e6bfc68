import { describe, expect, it } from 'vitest';
import { acceptedLanguages, formatLocale, negotiateLocale } from './locales';

describe('a page’s language', () => {
  it.each([
    ['de-DE,de;q=0.9,en;q=0.8', null, 'de'],
    ['fr-CH, fr;q=0.9, en;q=0.8', null, 'fr'],
    ['pt-PT', null, 'pt-BR'],
    ['zh-CN,ja;q=0.5', null, 'ja'],
    ['sv, da;q=0.8', null, 'en'],
    ['en;q=0.1, ar', null, 'ar'],
    ['de;q=0', null, 'en'],
    ['', null, 'en'],
    ['de-DE', 'ja', 'ja'],
    ['de-DE', 'xx', 'de'],
  ])('Accept-Language %j with the cookie %j → %s', (header, cookie, expected) => {
    expect(negotiateLocale(cookie, acceptedLanguages(header))).toBe(expected);
  });

  it.each([
    ['en', ['de-DE', 'en-GB'], 'en-GB'],
    ['en', ['en-US', 'de'], 'en-US'],
    ['en', ['fr', 'EN'], 'en'],
    ['de', ['de-CH'], 'de-CH'],
    ['de', ['en-GB'], 'de'],
    ['pt-BR', ['pt-PT'], 'pt-BR'],
  ])('formats a %s page for a reader of %j in %s', (locale, languages, expected) => {
    expect(formatLocale(locale as 'en', languages)).toBe(expected);
  });
});
