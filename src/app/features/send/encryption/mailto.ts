import { formatDateTime } from '../../../lib/format';
import { currentIntl } from '../../../lib/intl';

export interface LinkMail {
  /** The addresses typed as recipients: never sent to the service for an encrypted transfer. */
  recipients: readonly string[];
  /** The full link, key included. */
  link: string;
  title: string | null;
  message: string | null;
  expiresAt: string;
}

// RFC 6068: `@` and `,` are fine as they are in the address part; everything else the encoder escapes.
const address = (a: string) => encodeURIComponent(a).replace(/%40/g, '@');

/**
 * A `mailto:` link that opens the sender's own mail app with the recipients, a subject and the full link: the way
 * an encrypted transfer reaches its recipients, since the key must not pass through the service's mailer.
 */
export function linkMailto({ recipients, link, title, message, expiresAt }: LinkMail): string {
  // In the sender's language (the page's): they send it, and may edit it in their mail app first.
  const intl = currentIntl();
  const subject = title
    ? intl.formatMessage({ id: 'send.mailto.subjectTitled', defaultMessage: 'Files for you: {title}' }, { title })
    : intl.formatMessage({ id: 'send.mailto.subject', defaultMessage: 'Files for you' });
  const body = [
    ...(message ? [message, ''] : []),
    intl.formatMessage({ id: 'send.mailto.downloadHere', defaultMessage: 'Download them here:' }),
    link,
    '',
    intl.formatMessage(
      {
        id: 'send.mailto.encrypted',
        defaultMessage:
          'The files are end-to-end encrypted: the part of the link after # is the key that opens them, so keep the link private. It works until {date}.',
      },
      { date: formatDateTime(expiresAt) },
    ),
  ].join('\r\n');
  return `mailto:${recipients.map(address).join(',')}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
