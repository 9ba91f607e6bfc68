import { describe, expect, it } from 'vitest';
import { collectionPasswordFieldError } from './collection-password';

describe('collectionPasswordFieldError', () => {
  it('asks for a password to make a collection password-protected, by the contract’s rule and bounds', () => {
    expect(collectionPasswordFieldError('', { visibility: 'password', hasPassword: false })).toBe('Choose a password for visitors to type.');
    expect(collectionPasswordFieldError('abc', { visibility: 'password', hasPassword: false })).toBe('Use at least 4 characters.');
    expect(collectionPasswordFieldError('x'.repeat(201), { visibility: 'password', hasPassword: true })).toBe('Use at most 200 characters.');
    expect(collectionPasswordFieldError('abcd', { visibility: 'password', hasPassword: false })).toBeUndefined();
  });

  it('keeps the current password when the field is left empty, and ignores the field for other visibilities', () => {
    expect(collectionPasswordFieldError('', { visibility: 'password', hasPassword: true })).toBeUndefined();
    expect(collectionPasswordFieldError('', { visibility: 'public', hasPassword: false })).toBeUndefined();
    expect(collectionPasswordFieldError('ab', { visibility: 'private', hasPassword: true })).toBeUndefined();
  });
});
