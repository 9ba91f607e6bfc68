import { systemClock, type Clock } from '../core/clock.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { createFileMailer } from './file-mailer.js';
import type { Mailer } from './message.js';
import { createSmtpMailer } from './smtp-mailer.js';

export type { Mailer, OutgoingMessage, SendResult } from './message.js';

/**
 * The one mailer of the product: SMTP through nodemailer when SMTP_URL is set, otherwise .eml
 * files under DATA_DIR/mail that the dashboard lists (see outbox.ts). The clock stamps the Date
 * header and the file names, so that tests moving time see it in the mail too.
 */
export function createMailer(config: Config, log: Logger, clock: Clock = systemClock): Mailer {
  const mailLog = log.child({ module: 'mail' });
  return config.SMTP_URL
    ? createSmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM, log: mailLog, clock })
    : createFileMailer({ dataDir: config.DATA_DIR, from: config.MAIL_FROM, log: mailLog, clock });
}
