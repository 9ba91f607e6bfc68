import { scopeDescriptions, sendScope, type Scope } from '../../../contract/scope-names';

/** A scope in the owner's words, for an assistant asking for it; write and send scopes carry a warning. */
export function scopeWords(scope: string): { title: string; description: string; warning: string | null } {
  if (scope === sendScope) {
    return { title: 'Email people for you', description: 'Send transfers to recipients by email, in your name.', warning: 'It can email people in your name' };
  }
  const [resource, action] = scope.split(':');
  const things = resource === 'transfers' ? 'transfers' : resource === 'collections' ? 'collections' : resource === 'contacts' ? 'contacts' : 'webhooks';
  const description = scopeDescriptions[scope as Scope] ?? scope;
  if (action === 'write') return { title: `Change your ${things}`, description, warning: 'It can change and delete things' };
  return { title: `See your ${things}`, description, warning: null };
}
