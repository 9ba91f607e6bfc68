import { defineMessages, type IntlShape, type MessageDescriptor } from 'react-intl';
import { scopeDescription } from '../../lib/scope-descriptions';
import { scopes, sendScope, type Scope } from '../../../contract/scope-names';

/** The scope in the owner's words, by the resource it is about and whether it only reads. */
const titles = defineMessages({
  transfersRead: { id: 'oauth.scope.transfersReadTitle', defaultMessage: 'See your transfers' },
  transfersWrite: { id: 'oauth.scope.transfersWriteTitle', defaultMessage: 'Change your transfers' },
  collectionsRead: { id: 'oauth.scope.collectionsReadTitle', defaultMessage: 'See your collections' },
  collectionsWrite: { id: 'oauth.scope.collectionsWriteTitle', defaultMessage: 'Change your collections' },
  contactsRead: { id: 'oauth.scope.contactsReadTitle', defaultMessage: 'See your contacts' },
  contactsWrite: { id: 'oauth.scope.contactsWriteTitle', defaultMessage: 'Change your contacts' },
  webhooksRead: { id: 'oauth.scope.webhooksReadTitle', defaultMessage: 'See your webhooks' },
  webhooksWrite: { id: 'oauth.scope.webhooksWriteTitle', defaultMessage: 'Change your webhooks' },
});

function titleOf(resource: string | undefined, write: boolean): MessageDescriptor {
  switch (resource) {
    case 'transfers':
      return write ? titles.transfersWrite : titles.transfersRead;
    case 'collections':
      return write ? titles.collectionsWrite : titles.collectionsRead;
    case 'contacts':
      return write ? titles.contactsWrite : titles.contactsRead;
    default:
      return write ? titles.webhooksWrite : titles.webhooksRead;
  }
}

const isScope = (scope: string): scope is Scope => (scopes as readonly string[]).includes(scope);

/** A scope in the owner's words, for an assistant asking for it; write and send scopes carry a warning. */
export function scopeWords(scope: string, intl: IntlShape): { title: string; description: string; warning: string | null } {
  if (scope === sendScope) {
    return {
      title: intl.formatMessage({ id: 'oauth.scope.sendTitle', defaultMessage: 'Email people for you' }),
      description: intl.formatMessage({ id: 'oauth.scope.sendDescription', defaultMessage: 'Send transfers to recipients by email, in your name.' }),
      warning: intl.formatMessage({ id: 'oauth.scope.sendWarning', defaultMessage: 'It can email people in your name' }),
    };
  }
  const [resource, action] = scope.split(':');
  const write = action === 'write';
  const description = isScope(scope) ? scopeDescription(scope, intl) : scope;
  return {
    title: intl.formatMessage(titleOf(resource, write)),
    description,
    warning: write ? intl.formatMessage({ id: 'oauth.scope.writeWarning', defaultMessage: 'It can change and delete things' }) : null,
  };
}
