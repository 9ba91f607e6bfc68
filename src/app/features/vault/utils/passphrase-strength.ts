import type { IntlShape } from 'react-intl';
import { currentIntl } from '../../../lib/intl';

/**
 * A rough guess of how hard a passphrase is to guess, for the meter under the field: the vault has no "forgot
 * password" the service could answer, so a weak passphrase is the one thing to stop early. It errs low: repeats,
 * runs (abc, 123), keyboard rows and common words count for little.
 */

export type Strength = 'too-short' | 'weak' | 'fair' | 'good' | 'strong';

export const MIN_PASSPHRASE_LENGTH = 10;
/** What a new passphrase must reach. */
export const REQUIRED_STRENGTH: Strength = 'fair';

const order: Strength[] = ['too-short', 'weak', 'fair', 'good', 'strong'];
export const atLeast = (strength: Strength, floor: Strength) => order.indexOf(strength) >= order.indexOf(floor);

const COMMON = ['password', 'passphrase', 'qwerty', 'azerty', 'letmein', 'welcome', 'admin', 'iloveyou', 'monkey', 'dragon', 'secret', 'vault', 'parcel'];
const RUNS = ['abcdefghijklmnopqrstuvwxyz', '0123456789', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** Estimated bits of guessing work. */
export function passphraseBits(passphrase: string): number {
  let text = passphrase.normalize('NFC').toLowerCase();
  for (const word of COMMON) text = text.split(word).join('\u0001');
  let pool = 0;
  if (/[a-z]/.test(passphrase)) pool += 26;
  if (/[A-Z]/.test(passphrase)) pool += 26;
  if (/[0-9]/.test(passphrase)) pool += 10;
  if (/[^A-Za-z0-9]/.test(passphrase)) pool += 33;
  const perCharacter = Math.log2(Math.max(pool, 10));
  let bits = 0;
  const chars = [...text];
  chars.forEach((c, i) => {
    const previous = chars[i - 1];
    if (c === '\u0001') bits += 4;
    else if (previous === c) bits += 1;
    else if (previous !== undefined && RUNS.some((run) => run.includes(previous + c) || run.includes(c + previous))) bits += 1.5;
    else bits += perCharacter;
  });
  return Math.round(bits);
}

export function passphraseStrength(passphrase: string): Strength {
  if ([...passphrase].length < MIN_PASSPHRASE_LENGTH) return 'too-short';
  const bits = passphraseBits(passphrase);
  if (bits < 45) return 'weak';
  if (bits < 60) return 'fair';
  if (bits < 80) return 'good';
  return 'strong';
}

/** The strength in words, under the field and in its error. */
export function strengthLabel(strength: Strength, intl: IntlShape = currentIntl()): string {
  switch (strength) {
    case 'too-short':
      return intl.formatMessage(
        { id: 'vault.strength.tooShort', defaultMessage: 'Too short: at least {min, plural, one {# character} other {# characters}}' },
        { min: MIN_PASSPHRASE_LENGTH },
      );
    case 'weak':
      return intl.formatMessage({ id: 'vault.strength.weak', defaultMessage: 'Weak: easy to guess' });
    case 'fair':
      return intl.formatMessage({ id: 'vault.strength.fair', defaultMessage: 'Fair' });
    case 'good':
      return intl.formatMessage({ id: 'vault.strength.good', defaultMessage: 'Good' });
    case 'strong':
      return intl.formatMessage({ id: 'vault.strength.strong', defaultMessage: 'Strong' });
  }
}
