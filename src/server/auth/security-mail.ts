import { renderEmail } from '../mail/html.js';
import { mailIntl, mailLocale, type MailIntl } from '../mail/intl.js';
import type { Services } from '../services.js';
import type { SignedInUser } from './sessions.js';

/**
 * Mail to the person when how they sign in changes, so that a change they did not make (from a
 * stolen session) does not go unnoticed: they can take their account back from Security. In their own language.
 */

export type SecurityChange = { kind: 'two_step_on' } | { kind: 'two_step_off' } | { kind: 'passkey_added'; name: string } | { kind: 'passkey_removed'; name: string };

function describe(intl: MailIntl, change: SecurityChange): { heading: string; subject: string; what: string } {
  switch (change.kind) {
    case 'two_step_on':
      return {
        heading: intl.formatMessage({ id: 'mail.security.twoStepOn.heading', defaultMessage: 'Two-step verification is on' }),
        subject: intl.formatMessage({ id: 'mail.security.twoStepOn.subject', defaultMessage: 'Your Parcel account: two-step verification is on' }),
        what: intl.formatMessage({
          id: 'mail.security.twoStepOn.what',
          defaultMessage: 'Two-step verification was turned on for your Parcel account: signing in now asks for a code from your authenticator app.',
        }),
      };
    case 'two_step_off':
      return {
        heading: intl.formatMessage({ id: 'mail.security.twoStepOff.heading', defaultMessage: 'Two-step verification is off' }),
        subject: intl.formatMessage({ id: 'mail.security.twoStepOff.subject', defaultMessage: 'Your Parcel account: two-step verification is off' }),
        what: intl.formatMessage({ id: 'mail.security.twoStepOff.what', defaultMessage: 'Two-step verification was turned off for your Parcel account: signing in now asks only for your password.' }),
      };
    case 'passkey_added':
      return {
        heading: intl.formatMessage({ id: 'mail.security.passkeyAdded.heading', defaultMessage: 'A passkey was added' }),
        subject: intl.formatMessage({ id: 'mail.security.passkeyAdded.subject', defaultMessage: 'Your Parcel account: a passkey was added' }),
        what: intl.formatMessage(
          { id: 'mail.security.passkeyAdded.what', defaultMessage: 'A passkey named “{name}” was added to your Parcel account: it signs in alone.', description: 'name: what the person called the passkey' },
          { name: change.name },
        ),
      };
    case 'passkey_removed':
      return {
        heading: intl.formatMessage({ id: 'mail.security.passkeyRemoved.heading', defaultMessage: 'A passkey was removed' }),
        subject: intl.formatMessage({ id: 'mail.security.passkeyRemoved.subject', defaultMessage: 'Your Parcel account: a passkey was removed' }),
        what: intl.formatMessage(
          { id: 'mail.security.passkeyRemoved.what', defaultMessage: 'The passkey named “{name}” was removed from your Parcel account.', description: 'name: what the person called the passkey' },
          { name: change.name },
        ),
      };
  }
}

export async function mailSecurityChange(services: Pick<Services, 'mailer' | 'config'>, user: Pick<SignedInUser, 'email' | 'workspaceId' | 'language'>, change: SecurityChange) {
  const locale = mailLocale(user.language);
  const intl = mailIntl(locale);
  const { heading, subject, what } = describe(intl, change);
  const content = renderEmail({
    locale,
    heading,
    paragraphs: [
      what,
      intl.formatMessage({
        id: 'mail.security.notYou',
        defaultMessage: 'If it was not you, change your password now, and review your sessions, passkeys and two-step verification: every other session ends when you do.',
      }),
    ],
    action: { label: intl.formatMessage({ id: 'mail.security.action', defaultMessage: 'Review your security settings' }), url: `${services.config.PUBLIC_URL.replace(/\/$/, '')}/security` },
  });
  await services.mailer.send({ to: user.email, subject, text: content.text, html: content.html, tag: 'account.security', workspaceId: user.workspaceId });
}
