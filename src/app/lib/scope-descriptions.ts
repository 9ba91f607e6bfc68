import { defineMessages, type IntlShape, type MessageDescriptor } from 'react-intl';
import type { Scope } from '../../contract/scope-names';

/**
 * What each scope allows, in the reader's words (the scope's name itself is an API identifier, shown as code): the same
 * words where a key is made and where an assistant asks for it.
 */
const descriptions: Record<Scope, MessageDescriptor> = defineMessages({
  'transfers:read': { id: 'scopes.transfersRead', defaultMessage: 'List and read transfers, download receipts, download links for own transfers' },
  'transfers:write': {
    id: 'scopes.transfersWrite',
    defaultMessage: 'Create transfers, add and remove files, send (including emailing recipients), change expiry and download limits, revoke',
  },
  'collections:read': {
    id: 'scopes.collectionsRead',
    defaultMessage: 'List collections, files, folders, guests, collection download links, upload requests',
  },
  'collections:write': {
    id: 'scopes.collectionsWrite',
    defaultMessage:
      'Create, rename, delete collections, upload and delete files, create folders, invite and remove guests, manage upload requests (paid plan)',
  },
  'contacts:read': { id: 'scopes.contactsRead', defaultMessage: 'List and read contacts' },
  'contacts:write': { id: 'scopes.contactsWrite', defaultMessage: 'Create, replace, delete contacts' },
  'webhooks:read': { id: 'scopes.webhooksRead', defaultMessage: 'List endpoints, deliveries, events' },
  'webhooks:write': { id: 'scopes.webhooksWrite', defaultMessage: 'Create, change, delete endpoints, rotate secret, test, redeliver' },
});

export function scopeDescription(scope: Scope, intl: IntlShape): string {
  return intl.formatMessage(descriptions[scope]);
}
