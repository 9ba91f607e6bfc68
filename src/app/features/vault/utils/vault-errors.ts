import { E2eeError } from '../../../../crypto';

/** What the page says for a refusal of the crypto library, in words for the owner. */
export function vaultErrorMessage(error: unknown): Error {
  if (!(error instanceof E2eeError)) return error instanceof Error ? error : new Error('Something went wrong. Try again.');
  // A record of a later format is this page being old, not the record being tampered with: say so.
  if (error.reason === 'malformed' && /newer version/.test(error.message))
    return new Error('Your vault was saved by a newer version of this site. Reload the page.');
  switch (error.reason) {
    case 'weak_kdf':
    case 'bad_kdf':
    case 'malformed':
      return new Error('This vault’s stored settings are not ones this page accepts (they may have been tampered with), so it was not opened.');
    default:
      return new Error(error.message);
  }
}
