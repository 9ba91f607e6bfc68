import type { ActivityKindName } from '../../../../contract/activity-kinds';
import type { ActivityEntry } from '../api/activity';

const visibilityName: Record<string, string> = { public: 'anyone with the link', password: 'a password' };

/** The filter's names for each kind, in the order the menu lists them. */
export const kindLabels: Record<ActivityKindName, string> = {
  'member.signed_in': 'Sign-ins',
  'member.invited': 'Invitations sent',
  'member.invitation_revoked': 'Invitations withdrawn',
  'member.joined': 'Joins',
  'member.role_changed': 'Role changes',
  'member.removed': 'Removals',
  'member.left': 'Members leaving',
  'workspace.ownership_transferred': 'Ownership handed over',
  'workspace.plan_changed': 'Plan changes',
  'workspace.two_step_requirement_changed': 'Two-step verification required or not',
  'workspace.sign_in_domain_tied': 'Sign-in domains tied',
  'workspace.sign_in_domain_untied': 'Sign-in domains untied',
  'workspace.single_sign_on_requirement_changed': 'Single sign-on required or not',
  'api_key.created': 'API keys created',
  'api_key.revoked': 'API keys revoked',
  'webhook.created': 'Webhooks added',
  'webhook.deleted': 'Webhooks deleted',
  'transfer.sent': 'Transfers sent',
  'transfer.revoked': 'Transfers revoked',
  'collection.shared': 'Collections shared',
  'upload_request.opened': 'Upload requests opened',
  'upload_request.closed': 'Upload requests closed',
};

export interface ActivityDescription {
  /** What was done, before the subject's name ("revoked the API key"). */
  action: string;
  /** The subject's name as it was, if the entry has one (shown as text, never as markup). */
  subject: string | null;
  /** What follows the subject ("as admin", "with 3 files"). */
  after: string;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** An entry as a sentence about its actor: "invited ada@example.com as admin". */
export function describeActivity(entry: ActivityEntry): ActivityDescription {
  const d = entry.detail;
  const subject = entry.subject?.name ?? null;
  const role = (key: string) => String(d[key]);
  switch (entry.kind) {
    case 'member.signed_in':
      return { action: 'signed in', subject: null, after: '' };
    case 'member.invited':
      return { action: 'invited', subject, after: `as ${role('role')}` };
    case 'member.invitation_revoked':
      return { action: 'withdrew the invitation of', subject, after: '' };
    case 'member.joined':
      return { action: 'joined the workspace', subject: null, after: `as ${role('role')}${d.via === 'single_sign_on' ? ', through single sign-on' : ''}` };
    case 'member.role_changed':
      return { action: 'made', subject, after: `${role('to')} (was ${role('from')})` };
    case 'member.removed':
      return { action: 'removed', subject, after: 'from the workspace' };
    case 'member.left':
      return { action: 'left the workspace', subject: null, after: '' };
    case 'workspace.ownership_transferred':
      return { action: 'handed the workspace over to', subject, after: '' };
    case 'workspace.plan_changed':
      return { action: 'changed the plan', subject: null, after: `from ${String(d.from)} to ${String(d.to)}${d.until ? ` until ${String(d.until).slice(0, 10)}` : ''}` };
    case 'workspace.two_step_requirement_changed':
      return d.required
        ? { action: 'required two-step verification of everyone in the workspace', subject: null, after: '' }
        : { action: 'stopped requiring two-step verification', subject: null, after: '' };
    case 'workspace.sign_in_domain_tied':
      return { action: 'tied the email domain', subject, after: `to single sign-on with ${String(d.provider)}` };
    case 'workspace.sign_in_domain_untied':
      return { action: 'untied the email domain', subject, after: 'from single sign-on' };
    case 'workspace.single_sign_on_requirement_changed':
      return d.required
        ? { action: 'required single sign-on of everyone in the workspace', subject: null, after: '' }
        : { action: 'stopped requiring single sign-on', subject: null, after: '' };
    case 'api_key.created':
      return { action: 'created the API key', subject, after: '' };
    case 'api_key.revoked':
      return { action: 'revoked the API key', subject, after: '' };
    case 'webhook.created':
      return { action: 'added the webhook', subject, after: '' };
    case 'webhook.deleted':
      return { action: 'deleted the webhook', subject, after: '' };
    case 'transfer.sent': {
      const files = typeof d.files === 'number' ? plural(d.files, 'file') : '';
      const to = typeof d.recipients === 'number' && d.recipients > 0 ? ` to ${plural(d.recipients, 'recipient')}` : ' as a link';
      return { action: 'sent', subject: subject ?? (d.encrypted ? 'an encrypted transfer' : 'an untitled transfer'), after: `${files ? `with ${files}` : ''}${to}${d.encrypted ? ', end-to-end encrypted' : ''}` };
    }
    case 'transfer.revoked':
      return { action: 'revoked', subject: subject ?? 'an untitled transfer', after: '' };
    case 'collection.shared':
      return { action: 'shared the collection', subject, after: `with ${visibilityName[String(d.visibility)] ?? String(d.visibility)}` };
    case 'upload_request.opened':
      return { action: 'opened the upload request', subject, after: '' };
    case 'upload_request.closed':
      return { action: 'closed the upload request', subject, after: '' };
  }
}

/** Where an entry's subject lives in the dashboard, while it does. */
export function subjectLink(entry: ActivityEntry): { to: string; params: Record<string, string> } | null {
  const id = entry.subject?.id;
  if (!id) return null;
  switch (entry.subject?.type) {
    case 'transfer':
      return { to: '/transfers/$transferId', params: { transferId: id } };
    case 'collection':
      return { to: '/collections/$collectionId', params: { collectionId: id } };
    case 'upload_request':
      return { to: '/requests/$requestId', params: { requestId: id } };
    case 'webhook':
      return entry.kind === 'webhook.deleted' ? null : { to: '/webhooks/$webhookId', params: { webhookId: id } };
    default:
      return null;
  }
}
