import type { IntlShape } from 'react-intl';
import type { ParsedAddresses } from '../../../../components/address-field/address-list';
import { currentIntl } from '../../../../lib/intl';

/** The API invites at most this many addresses in one request. */
export const MAX_INVITES = 25;

/** Why these addresses cannot be sent yet, or undefined when they can. */
export function guestAddressesProblem({ valid, invalid }: ParsedAddresses, intl: IntlShape = currentIntl()): string | undefined {
  if (invalid.length === 1)
    return intl.formatMessage({ id: 'collections.invite.invalidOne', defaultMessage: '“{address}” is not a valid email address. Fix or remove it.' }, { address: invalid[0] });
  if (invalid.length > 1) {
    const quoted = invalid.map((address) => intl.formatMessage({ id: 'collections.invite.quoted', defaultMessage: '“{address}”' }, { address }));
    return intl.formatMessage(
      {
        id: 'collections.invite.invalidMany',
        defaultMessage:
          '{count, plural, one {# address is not valid: {addresses}. Fix or remove it.} other {# addresses are not valid: {addresses}. Fix or remove them.}}',
      },
      { count: invalid.length, addresses: intl.formatList(quoted, { type: 'unit' }) },
    );
  }
  if (valid.length === 0) return intl.formatMessage({ id: 'collections.invite.none', defaultMessage: 'Enter at least one email address.' });
  if (valid.length > MAX_INVITES)
    return intl.formatMessage(
      {
        id: 'collections.invite.tooMany',
        defaultMessage: '{max, plural, one {At most # address at once; this is {count, number}.} other {At most # addresses at once; this is {count, number}.}}',
      },
      { max: MAX_INVITES, count: valid.length },
    );
  return undefined;
}
