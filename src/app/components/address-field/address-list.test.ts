import { describe, expect, it } from 'vitest';
import { joinAddressText, parseAddressList, splitAddressText } from './address-list';

describe('address list', () => {
  it('splits on commas, semicolons, spaces and new lines, lower-cases and keeps each address once', () => {
    expect(parseAddressList('Ada@Example.com,grace@example.org;\n ada@example.com\tlin@example.net', { typing: false })).toEqual({
      valid: ['ada@example.com', 'grace@example.org', 'lin@example.net'],
      invalid: [],
      pending: null,
      duplicates: 1,
    });
  });

  it('leaves the word still being typed alone until a separator follows it', () => {
    expect(parseAddressList('ada@example.com, gra', { typing: true })).toMatchObject({ valid: ['ada@example.com'], invalid: [], pending: 'gra' });
    expect(parseAddressList('ada@example.com, gra ', { typing: true })).toMatchObject({ invalid: ['gra'], pending: null });
    expect(parseAddressList('ada@example.com, gra', { typing: false })).toMatchObject({ invalid: ['gra'], pending: null });
  });

  it('accepts what the API accepts: no address without a top-level domain, none longer than 254 characters', () => {
    expect(parseAddressList('grace@example', { typing: false }).invalid).toEqual(['grace@example']);
    expect(parseAddressList(`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`, { typing: false }).valid).toHaveLength(0);
  });

  it('reads a text as the addresses finished with a separator and the word after the last one', () => {
    expect(splitAddressText('ada@example.com, grace@example.org;gra')).toEqual({
      head: 'ada@example.com, grace@example.org;',
      finished: ['ada@example.com', 'grace@example.org'],
      draft: 'gra',
    });
    expect(splitAddressText('ada@example.com\n')).toEqual({ head: 'ada@example.com\n', finished: ['ada@example.com'], draft: '' });
    expect(splitAddressText('')).toEqual({ head: '', finished: [], draft: '' });
  });

  it('writes finished addresses and a draft back as one text that reads the same', () => {
    const text = joinAddressText(['ada@example.com', 'grace@example.org'], 'li');
    expect(text).toBe('ada@example.com, grace@example.org, li');
    expect(splitAddressText(text)).toMatchObject({ finished: ['ada@example.com', 'grace@example.org'], draft: 'li' });
    expect(joinAddressText([], 'li')).toBe('li');
  });
});
