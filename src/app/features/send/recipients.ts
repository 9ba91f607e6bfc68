import type { IntlShape } from 'react-intl';
import type { ParsedAddresses } from '../../components/address-field/address-list';

export const MAX_RECIPIENTS = 50;

/** Why these recipients cannot be sent, or undefined when they can (none is fine: the sender shares the link). */
export function recipientsError({ valid, invalid }: ParsedAddresses, intl: IntlShape): string | undefined {
  if (invalid.length === 1) {
    return intl.formatMessage({ id: 'send.recipients.invalidOne', defaultMessage: '“{address}” is not a valid email address.' }, { address: invalid[0] });
  }
  if (invalid.length > 1) {
    const addresses = invalid.map((address) => intl.formatMessage({ id: 'send.recipients.quoted', defaultMessage: '“{address}”' }, { address }));
    return intl.formatMessage(
      { id: 'send.recipients.invalidMany', defaultMessage: 'These are not valid email addresses: {addresses}.' },
      { addresses: intl.formatList(addresses, { type: 'unit', style: 'short' }) },
    );
  }
  if (valid.length > MAX_RECIPIENTS) {
    return intl.formatMessage({ id: 'send.recipients.tooMany', defaultMessage: '{max, plural, one {At most # recipient.} other {At most # recipients.}}' }, { max: MAX_RECIPIENTS });
  }
  return undefined;
}
