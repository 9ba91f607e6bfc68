import type { IntlShape } from 'react-intl';
import { E2eeError } from '../../../../crypto';
import { currentIntl } from '../../../lib/intl';

/** What the page says for a refusal of the crypto library, in words for the owner. */
export function vaultErrorMessage(error: unknown, intl: IntlShape = currentIntl()): Error {
  if (!(error instanceof E2eeError))
    return error instanceof Error ? error : new Error(intl.formatMessage({ id: 'status.somethingWrong', defaultMessage: 'Something went wrong. Try again.' }));
  // A record of a later format is this page being old, not the record being tampered with: say so.
  if (error.reason === 'malformed' && /newer version/.test(error.message))
    return new Error(intl.formatMessage({ id: 'vault.errors.newerVersion', defaultMessage: 'Your vault was saved by a newer version of this site. Reload the page.' }));
  switch (error.reason) {
    case 'weak_kdf':
    case 'bad_kdf':
    case 'malformed':
      return new Error(
        intl.formatMessage({
          id: 'vault.errors.settingsRefused',
          defaultMessage: 'This vault’s stored settings are not ones this page accepts (they may have been tampered with), so it was not opened.',
        }),
      );
    default:
      return new Error(error.message);
  }
}
