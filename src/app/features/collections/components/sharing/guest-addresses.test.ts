import { describe, expect, it } from 'vitest';
import { parseAddressList } from '../../../../components/address-field/address-list';
import { guestAddressesProblem } from './guest-addresses';

describe('guest addresses', () => {
  it('says what stops sending: invalid addresses first, then none at all, then too many', () => {
    expect(guestAddressesProblem(parseAddressList('nope', { typing: false }))).toBe('“nope” is not a valid email address. Fix or remove it.');
    expect(guestAddressesProblem(parseAddressList('nope, nah', { typing: false }))).toBe('2 addresses are not valid: “nope”, “nah”. Fix or remove them.');
    expect(guestAddressesProblem(parseAddressList('', { typing: false }))).toBe('Enter at least one email address.');
    const many = Array.from({ length: 26 }, (_, i) => `g${i}@example.com`).join(' ');
    expect(guestAddressesProblem(parseAddressList(many, { typing: false }))).toBe('At most 25 addresses at once; this is 26.');
    expect(guestAddressesProblem(parseAddressList('ada@example.com', { typing: false }))).toBeUndefined();
  });
});
