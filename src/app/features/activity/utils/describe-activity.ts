import type { ReactNode } from 'react';
import { defineMessages, type IntlShape } from 'react-intl';
import type { ActivityKindName } from '../../../../contract/activity-kinds';
import { formatDate } from '../../../lib/format';
import type { ActivityEntry } from '../api/activity';

/** The filter's names for each kind, in the order the menu lists them (formatted where shown). */
export const kindLabels = defineMessages<ActivityKindName>({
  'member.signed_in': { id: 'activity.kind.memberSignedIn', defaultMessage: 'Sign-ins' },
  'member.invited': { id: 'activity.kind.memberInvited', defaultMessage: 'Invitations sent' },
  'member.invitation_revoked': { id: 'activity.kind.memberInvitationRevoked', defaultMessage: 'Invitations withdrawn' },
  'member.joined': { id: 'activity.kind.memberJoined', defaultMessage: 'Joins' },
  'member.role_changed': { id: 'activity.kind.memberRoleChanged', defaultMessage: 'Role changes' },
  'member.removed': { id: 'activity.kind.memberRemoved', defaultMessage: 'Removals' },
  'member.left': { id: 'activity.kind.memberLeft', defaultMessage: 'Members leaving' },
  'workspace.ownership_transferred': { id: 'activity.kind.workspaceOwnershipTransferred', defaultMessage: 'Ownership handed over' },
  'workspace.plan_changed': { id: 'activity.kind.workspacePlanChanged', defaultMessage: 'Plan changes' },
  'workspace.two_step_requirement_changed': { id: 'activity.kind.workspaceTwoStepRequirementChanged', defaultMessage: 'Two-step verification required or not' },
  'workspace.sign_in_domain_tied': { id: 'activity.kind.workspaceSignInDomainTied', defaultMessage: 'Sign-in domains tied' },
  'workspace.sign_in_domain_untied': { id: 'activity.kind.workspaceSignInDomainUntied', defaultMessage: 'Sign-in domains untied' },
  'workspace.single_sign_on_requirement_changed': { id: 'activity.kind.workspaceSingleSignOnRequirementChanged', defaultMessage: 'Single sign-on required or not' },
  'api_key.created': { id: 'activity.kind.apiKeyCreated', defaultMessage: 'API keys created' },
  'api_key.revoked': { id: 'activity.kind.apiKeyRevoked', defaultMessage: 'API keys revoked' },
  'webhook.created': { id: 'activity.kind.webhookCreated', defaultMessage: 'Webhooks added' },
  'webhook.deleted': { id: 'activity.kind.webhookDeleted', defaultMessage: 'Webhooks deleted' },
  'transfer.sent': { id: 'activity.kind.transferSent', defaultMessage: 'Transfers sent' },
  'transfer.revoked': { id: 'activity.kind.transferRevoked', defaultMessage: 'Transfers revoked' },
  'collection.shared': { id: 'activity.kind.collectionShared', defaultMessage: 'Collections shared' },
  'upload_request.opened': { id: 'activity.kind.uploadRequestOpened', defaultMessage: 'Upload requests opened' },
  'upload_request.closed': { id: 'activity.kind.uploadRequestClosed', defaultMessage: 'Upload requests closed' },
});

/** A role as the log's sentences name it ("as admin"); a role this dashboard does not know yet as it came. */
function roleName(value: unknown, intl: IntlShape): string {
  switch (value) {
    case 'owner':
      return intl.formatMessage({ id: 'activity.role.owner', defaultMessage: 'owner' });
    case 'admin':
      return intl.formatMessage({ id: 'activity.role.admin', defaultMessage: 'admin' });
    case 'member':
      return intl.formatMessage({ id: 'activity.role.member', defaultMessage: 'member' });
    default:
      return String(value);
  }
}

/** A plan as the log's sentences name it ("from free to paid"); another as it came. */
function planName(value: unknown, intl: IntlShape): string {
  switch (value) {
    case 'free':
      return intl.formatMessage({ id: 'activity.plan.free', defaultMessage: 'free' });
    case 'paid':
      return intl.formatMessage({ id: 'activity.plan.paid', defaultMessage: 'paid' });
    default:
      return String(value);
  }
}

/** The parts of a sentence the page renders itself: who acted, and the subject's name (a link to it while it exists). */
export interface SentenceParts {
  actor: ReactNode;
  /** The subject shown with `text`: its name as it was, or the words standing in for a missing one. */
  subject: (text: string) => ReactNode;
}

/**
 * An entry as one sentence about its actor: "Ada invited ada@example.com as admin". The names are values
 * (shown as text, never as markup); everything else is the sentence's message, one per kind and case.
 */
export function describeActivity(entry: ActivityEntry, intl: IntlShape, parts: SentenceParts): ReactNode {
  const d = entry.detail;
  const actor = parts.actor;
  const name = entry.subject?.name ?? null;
  const subject = name === null ? '' : parts.subject(name);
  switch (entry.kind) {
    case 'member.signed_in':
      return intl.formatMessage({ id: 'activity.entry.signedIn', defaultMessage: '{actor} signed in' }, { actor });
    case 'member.invited':
      return intl.formatMessage({ id: 'activity.entry.invited', defaultMessage: '{actor} invited {subject} as {role}' }, { actor, subject, role: roleName(d.role, intl) });
    case 'member.invitation_revoked':
      return intl.formatMessage({ id: 'activity.entry.invitationRevoked', defaultMessage: '{actor} withdrew the invitation of {subject}' }, { actor, subject });
    case 'member.joined':
      return d.via === 'single_sign_on'
        ? intl.formatMessage(
            { id: 'activity.entry.joinedSingleSignOn', defaultMessage: '{actor} joined the workspace as {role}, through single sign-on' },
            { actor, role: roleName(d.role, intl) },
          )
        : intl.formatMessage({ id: 'activity.entry.joined', defaultMessage: '{actor} joined the workspace as {role}' }, { actor, role: roleName(d.role, intl) });
    case 'member.role_changed':
      return intl.formatMessage(
        { id: 'activity.entry.roleChanged', defaultMessage: '{actor} made {subject} {to} (was {from})' },
        { actor, subject, to: roleName(d.to, intl), from: roleName(d.from, intl) },
      );
    case 'member.removed':
      return intl.formatMessage({ id: 'activity.entry.removed', defaultMessage: '{actor} removed {subject} from the workspace' }, { actor, subject });
    case 'member.left':
      return intl.formatMessage({ id: 'activity.entry.left', defaultMessage: '{actor} left the workspace' }, { actor });
    case 'workspace.ownership_transferred':
      return intl.formatMessage({ id: 'activity.entry.ownershipTransferred', defaultMessage: '{actor} handed the workspace over to {subject}' }, { actor, subject });
    case 'workspace.plan_changed':
      return d.until
        ? intl.formatMessage(
            { id: 'activity.entry.planChangedUntil', defaultMessage: '{actor} changed the plan from {from} to {to} until {until}' },
            { actor, from: planName(d.from, intl), to: planName(d.to, intl), until: formatDate(String(d.until)) },
          )
        : intl.formatMessage(
            { id: 'activity.entry.planChanged', defaultMessage: '{actor} changed the plan from {from} to {to}' },
            { actor, from: planName(d.from, intl), to: planName(d.to, intl) },
          );
    case 'workspace.two_step_requirement_changed':
      return d.required
        ? intl.formatMessage({ id: 'activity.entry.twoStepRequired', defaultMessage: '{actor} required two-step verification of everyone in the workspace' }, { actor })
        : intl.formatMessage({ id: 'activity.entry.twoStepNotRequired', defaultMessage: '{actor} stopped requiring two-step verification' }, { actor });
    case 'workspace.sign_in_domain_tied':
      return intl.formatMessage(
        { id: 'activity.entry.domainTied', defaultMessage: '{actor} tied the email domain {subject} to single sign-on with {provider}' },
        { actor, subject, provider: String(d.provider) },
      );
    case 'workspace.sign_in_domain_untied':
      return intl.formatMessage({ id: 'activity.entry.domainUntied', defaultMessage: '{actor} untied the email domain {subject} from single sign-on' }, { actor, subject });
    case 'workspace.single_sign_on_requirement_changed':
      return d.required
        ? intl.formatMessage({ id: 'activity.entry.singleSignOnRequired', defaultMessage: '{actor} required single sign-on of everyone in the workspace' }, { actor })
        : intl.formatMessage({ id: 'activity.entry.singleSignOnNotRequired', defaultMessage: '{actor} stopped requiring single sign-on' }, { actor });
    case 'api_key.created':
      return intl.formatMessage({ id: 'activity.entry.apiKeyCreated', defaultMessage: '{actor} created the API key {subject}' }, { actor, subject });
    case 'api_key.revoked':
      return intl.formatMessage({ id: 'activity.entry.apiKeyRevoked', defaultMessage: '{actor} revoked the API key {subject}' }, { actor, subject });
    case 'webhook.created':
      return intl.formatMessage({ id: 'activity.entry.webhookCreated', defaultMessage: '{actor} added the webhook {subject}' }, { actor, subject });
    case 'webhook.deleted':
      return intl.formatMessage({ id: 'activity.entry.webhookDeleted', defaultMessage: '{actor} deleted the webhook {subject}' }, { actor, subject });
    case 'transfer.sent': {
      const transfer = parts.subject(
        name ??
          (d.encrypted
            ? intl.formatMessage({ id: 'activity.subject.encryptedTransfer', defaultMessage: 'an encrypted transfer' })
            : intl.formatMessage({ id: 'activity.subject.untitledTransfer', defaultMessage: 'an untitled transfer' })),
      );
      const encrypted = d.encrypted ? 'yes' : 'no';
      const toRecipients = typeof d.recipients === 'number' && d.recipients > 0;
      if (typeof d.files === 'number') {
        return toRecipients
          ? intl.formatMessage(
              {
                id: 'activity.entry.transferSentFilesToRecipients',
                defaultMessage:
                  '{actor} sent {subject} with {files, plural, one {# file} other {# files}} to {recipients, plural, one {# recipient} other {# recipients}}{encrypted, select, yes {, end-to-end encrypted} other {}}',
              },
              { actor, subject: transfer, files: d.files, recipients: d.recipients, encrypted },
            )
          : intl.formatMessage(
              {
                id: 'activity.entry.transferSentFilesAsLink',
                defaultMessage: '{actor} sent {subject} with {files, plural, one {# file} other {# files}} as a link{encrypted, select, yes {, end-to-end encrypted} other {}}',
              },
              { actor, subject: transfer, files: d.files, encrypted },
            );
      }
      return toRecipients
        ? intl.formatMessage(
            {
              id: 'activity.entry.transferSentToRecipients',
              defaultMessage: '{actor} sent {subject} to {recipients, plural, one {# recipient} other {# recipients}}{encrypted, select, yes {, end-to-end encrypted} other {}}',
            },
            { actor, subject: transfer, recipients: d.recipients, encrypted },
          )
        : intl.formatMessage(
            { id: 'activity.entry.transferSentAsLink', defaultMessage: '{actor} sent {subject} as a link{encrypted, select, yes {, end-to-end encrypted} other {}}' },
            { actor, subject: transfer, encrypted },
          );
    }
    case 'transfer.revoked':
      return intl.formatMessage(
        { id: 'activity.entry.transferRevoked', defaultMessage: '{actor} revoked {subject}' },
        { actor, subject: parts.subject(name ?? intl.formatMessage({ id: 'activity.subject.untitledTransfer', defaultMessage: 'an untitled transfer' })) },
      );
    case 'collection.shared':
      switch (d.visibility) {
        case 'public':
          return intl.formatMessage({ id: 'activity.entry.collectionSharedPublic', defaultMessage: '{actor} shared the collection {subject} with anyone with the link' }, { actor, subject });
        case 'password':
          return intl.formatMessage({ id: 'activity.entry.collectionSharedPassword', defaultMessage: '{actor} shared the collection {subject} with a password' }, { actor, subject });
        default:
          return intl.formatMessage(
            { id: 'activity.entry.collectionShared', defaultMessage: '{actor} shared the collection {subject} with {visibility}' },
            { actor, subject, visibility: String(d.visibility) },
          );
      }
    case 'upload_request.opened':
      return intl.formatMessage({ id: 'activity.entry.uploadRequestOpened', defaultMessage: '{actor} opened the upload request {subject}' }, { actor, subject });
    case 'upload_request.closed':
      return intl.formatMessage({ id: 'activity.entry.uploadRequestClosed', defaultMessage: '{actor} closed the upload request {subject}' }, { actor, subject });
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
