import { describe, expect, it } from 'vitest';
import { guestAddressesProblem, parseGuestAddresses } from './guest-addresses';

describe('guest addresses', () => {
  it('splits on commas, semicolons, spaces and new lines, lower-cases and keeps each address once', () => {
    expect(parseGuestAddresses('Ada@Example.com,grace@example.org;\n ada@example.com\tlin@example.net', { typing: false })).toEqual({
      valid: ['ada@example.com', 'grace@example.org', 'lin@example.net'],
      invalid: [],
      pending: null,
      duplicates: 1,
    });
  });

  it('leaves the word still being typed alone until a separator follows it', () => {
    expect(parseGuestAddresses('ada@example.com, gra', { typing: true })).toMatchObject({ valid: ['ada@example.com'], invalid: [], pending: 'gra' });
    expect(parseGuestAddresses('ada@example.com, gra ', { typing: true })).toMatchObject({ invalid: ['gra'], pending: null });
    expect(parseGuestAddresses('ada@example.com, gra', { typing: false })).toMatchObject({ invalid: ['gra'], pending: null });
  });

  it('says what stops sending: invalid addresses first, then none at all, then too many', () => {
    expect(guestAddressesProblem(parseGuestAddresses('nope', { typing: false }))).toBe('“nope” is not a valid email address. Fix or remove it.');
    expect(guestAddressesProblem(parseGuestAddresses('', { typing: false }))).toBe('Enter at least one email address.');
    const many = Array.from({ length: 26 }, (_, i) => `g${i}@example.com`).join(' ');
    expect(guestAddressesProblem(parseGuestAddresses(many, { typing: false }))).toBe('At most 25 addresses at once; this is 26.');
    expect(guestAddressesProblem(parseGuestAddresses('ada@example.com', { typing: false }))).toBeUndefined();
  });
});
