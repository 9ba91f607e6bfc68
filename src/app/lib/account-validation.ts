import type { IntlShape } from 'react-intl';
import { currentIntl } from './intl';

// The same rules and words as the server's schemas (src/contract/dashboard.ts), checked before
// sending so mistakes show at once; the server checks again and its answer is shown too.

export const minPasswordLength = 10;

/** "Use at most 200 characters": the same words for every field with a maximum length. */
function tooLong(count: number, intl: IntlShape): string {
  return intl.formatMessage(
    { id: 'auth.accountValidation.tooLong', defaultMessage: '{count, plural, one {Use at most # character} other {Use at most # characters}}' },
    { count },
  );
}

/** "At least 10 characters.": the hint under every field where a new password is chosen. */
export function newPasswordHint(intl: IntlShape = currentIntl()): string {
  return intl.formatMessage(
    { id: 'auth.accountValidation.passwordHint', defaultMessage: '{count, plural, one {At least # character.} other {At least # characters.}}' },
    { count: minPasswordLength },
  );
}

export function newPasswordError(password: string, intl: IntlShape = currentIntl()): string | undefined {
  if (password.length < minPasswordLength)
    return intl.formatMessage(
      { id: 'auth.accountValidation.passwordTooShort', defaultMessage: '{count, plural, one {Use at least # character} other {Use at least # characters}}' },
      { count: minPasswordLength },
    );
  if (password.length > 200) return tooLong(200, intl);
  return undefined;
}

export function workspaceNameError(name: string, intl: IntlShape = currentIntl()): string | undefined {
  if (name.trim() === '') return intl.formatMessage({ id: 'auth.accountValidation.workspaceNameMissing', defaultMessage: 'Name your workspace' });
  if (name.trim().length > 100) return tooLong(100, intl);
  return undefined;
}
