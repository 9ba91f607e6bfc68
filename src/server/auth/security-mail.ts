import { renderEmail } from '../mail/html.js';
import type { Services } from '../services.js';
import type { SignedInUser } from './sessions.js';

/**
 * Mail to the person when how they sign in changes, so that a change they did not make (from a
 * stolen session) does not go unnoticed: they can take their account back from Security.
 */

export type SecurityChange = { kind: 'two_step_on' } | { kind: 'two_step_off' } | { kind: 'passkey_added'; name: string } | { kind: 'passkey_removed'; name: string };

function describe(change: SecurityChange): { subject: string; what: string } {
  switch (change.kind) {
    case 'two_step_on':
      return { subject: 'Two-step verification is on', what: 'Two-step verification was turned on for your Parcel account: signing in now asks for a code from your authenticator app.' };
    case 'two_step_off':
      return { subject: 'Two-step verification is off', what: 'Two-step verification was turned off for your Parcel account: signing in now asks only for your password.' };
    case 'passkey_added':
      return { subject: 'A passkey was added', what: `A passkey named “${change.name}” was added to your Parcel account: it signs in alone.` };
    case 'passkey_removed':
      return { subject: 'A passkey was removed', what: `The passkey named “${change.name}” was removed from your Parcel account.` };
  }
}

export async function mailSecurityChange(services: Pick<Services, 'mailer' | 'config'>, user: Pick<SignedInUser, 'email' | 'workspaceId'>, change: SecurityChange) {
  const { subject, what } = describe(change);
  const content = renderEmail({
    heading: subject,
    paragraphs: [what, 'If it was not you, change your password now, and review your sessions, passkeys and two-step verification: every other session ends when you do.'],
    action: { label: 'Review your security settings', url: `${services.config.PUBLIC_URL.replace(/\/$/, '')}/security` },
  });
  await services.mailer.send({ to: user.email, subject: `Your Parcel account: ${subject.charAt(0).toLowerCase()}${subject.slice(1)}`, text: content.text, html: content.html, tag: 'account.security', workspaceId: user.workspaceId });
}
