import { describe, expect, it } from 'vitest';
import { atLeast, passphraseStrength, REQUIRED_STRENGTH } from './passphrase-strength';

describe('passphrase strength', () => {
  it('refuses short, repeated, running and common passphrases', () => {
    expect(passphraseStrength('Tr0ub4!')).toBe('too-short');
    for (const weak of ['aaaaaaaaaaaaaaaa', 'abcdefghijklmnop', '1234567890123', 'password123!', 'qwertyuiopasdf']) {
      expect(atLeast(passphraseStrength(weak), REQUIRED_STRENGTH), weak).toBe(false);
    }
  });

  it('accepts several random words, and rates longer ones higher', () => {
    expect(atLeast(passphraseStrength('lantern orbit cactus'), REQUIRED_STRENGTH)).toBe(true);
    expect(passphraseStrength('lantern orbit cactus meadow velvet')).toBe('strong');
  });
});
