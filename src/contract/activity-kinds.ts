/** What the activity log records (contract/activity.ts); without zod, so the app's pages can list them cheaply. */
export const activityKinds = [
  'member.signed_in',
  'member.invited',
  'member.invitation_revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.left',
  'workspace.ownership_transferred',
  'workspace.plan_changed',
  'workspace.two_step_requirement_changed',
  'workspace.sign_in_domain_tied',
  'workspace.sign_in_domain_untied',
  'workspace.single_sign_on_requirement_changed',
  'api_key.created',
  'api_key.revoked',
  'webhook.created',
  'webhook.deleted',
  'transfer.sent',
  'transfer.revoked',
  'collection.shared',
  'upload_request.opened',
  'upload_request.closed',
] as const;

export type ActivityKindName = (typeof activityKinds)[number];
