import { defineMessages, type IntlShape } from 'react-intl';
import { currentIntl } from '../../../lib/intl';

const tagNames = defineMessages<string>({
  'transfer.sent': { id: 'outbox.tag.transferSent', defaultMessage: 'Transfer sent' },
});

/** A message's tag in words ("Transfer sent"); a tag this dashboard does not know yet is shown as it is. */
export function describeMailTag(tag: string, intl: IntlShape = currentIntl()): string {
  const name = Object.hasOwn(tagNames, tag) ? tagNames[tag] : undefined;
  return name ? intl.formatMessage(name) : tag;
}
