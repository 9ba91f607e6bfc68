import nodemailer, { type NodemailerError } from 'nodemailer';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../logger.js';
import { checkMessage, mailOptions, type Mailer, type OutgoingMessage, type SendResult } from './message.js';

type SmtpError = Pick<NodemailerError, 'message' | 'code' | 'command' | 'response' | 'responseCode' | 'rejectedErrors'>;

/**
 * Sorts nodemailer's error for a failed send into what the caller does next. Only a 5xx about this
 * recipient or this message (RCPT TO, DATA) is a bounce. A 5xx for our own sender or credentials
 * (MAIL FROM, AUTH) is the operator's misconfiguration, which must not mark every recipient
 * bounced: it is deferred like a 4xx or a connection failure, and logged as an error. 503 (bad
 * sequence of commands) is a protocol hiccup, not a verdict on the recipient.
 */
export function classifySmtpError(err: SmtpError): { result: SendResult; misconfigured: boolean } {
  const own = err.rejectedErrors?.find((e) => typeof e.responseCode === 'number') ?? err;
  const code = own.responseCode;
  const response = (own.response ?? err.response ?? err.message).slice(0, 1000);
  const aboutRecipient = err.code === 'EMESSAGE' || (err.code === 'EENVELOPE' && (err.command === 'RCPT TO' || err.command === 'DATA'));
  const permanent = typeof code === 'number' && code >= 500 && code !== 503;
  if (permanent && aboutRecipient) return { result: { status: 'bounced', kind: 'permanent', response }, misconfigured: false };
  return { result: { status: 'deferred', response }, misconfigured: permanent || err.code === 'EAUTH' || err.code === 'ENOAUTH' };
}

/** SMTP through a pooled nodemailer transport; credentials come in the URL. */
export function createSmtpMailer(options: { url: string; from: string; log: Logger; clock: Clock }): Mailer {
  const { log, clock } = options;
  // Keys here apply where the URL does not set them (it may add e.g. ?tls.rejectUnauthorized=false).
  const transport = nodemailer.createTransport({
    url: options.url,
    pool: true,
    maxConnections: 5,
    maxRequeues: 1,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
  });

  return {
    async send(message: OutgoingMessage): Promise<SendResult> {
      checkMessage(message);
      // Never the subject, body or address: links in transfer mail are capabilities.
      const meta = { tag: message.tag, workspaceId: message.workspaceId };
      let failure: SmtpError;
      try {
        const info = await transport.sendMail(mailOptions(message, options.from, clock.now()));
        if (info.rejected.length === 0) {
          log.info({ ...meta, messageId: info.messageId }, 'mail sent');
          return { status: 'sent', messageId: info.messageId };
        }
        // With one recipient nodemailer fails the send instead; kept for servers that answer oddly.
        const rejectedErrors = (info as { rejectedErrors?: NodemailerError[] }).rejectedErrors ?? [];
        failure = { message: 'Recipient rejected', code: 'EENVELOPE', command: 'RCPT TO', rejectedErrors, responseCode: 550, response: info.response };
      } catch (err) {
        failure = err as NodemailerError;
      }
      const { result, misconfigured } = classifySmtpError(failure);
      const details = { ...meta, status: result.status, code: failure.code, command: failure.command, responseCode: failure.responseCode };
      if (misconfigured) log.error(details, 'mail not sent: the SMTP server refused our sender or credentials (check SMTP_URL and MAIL_FROM)');
      else log.warn(details, result.status === 'bounced' ? 'mail bounced' : 'mail deferred');
      return result;
    },
    async close() {
      transport.close();
    },
  };
}
