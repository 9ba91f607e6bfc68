import { createHash } from 'node:crypto';
import type { SendMailOptions } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';

export interface OutgoingMessage {
  /** One recipient per message, so that bounces are per recipient. */
  to: string;
  subject: string;
  /** Plain text body (always). */
  text: string;
  /** Optional; callers build it with escapeHtml (or renderEmail) for every untrusted value. */
  html?: string;
  replyTo?: string;
  /** Shown in the .eml listing; lets the dashboard group mail by what it was about, e.g. 'transfer.sent'. */
  tag: string;
  /** The workspace the message belongs to: the dashboard lists only the signed-in workspace's mail. */
  workspaceId: string | null;
  /**
   * Names the one message this is (`transfer.sent:<recipient id>`): sent again after a crash between
   * sending and recording it, it is the same message. It gets a Message-ID derived from the key (mail
   * clients show a repeated Message-ID once) and the file outbox keeps it once.
   */
  idempotencyKey?: string;
}

export type SendResult =
  | { status: 'sent'; messageId: string }
  /** A 5xx from the SMTP server for this recipient: set bouncedAt and bounceKind, do not retry. */
  | { status: 'bounced'; kind: 'permanent'; response: string }
  /** A temporary failure (4xx, connection refused, timeout, refused credentials): the caller may retry later. */
  | { status: 'deferred'; response: string };

export interface Mailer {
  /** Never throws for delivery failures; throws only for a malformed message (a caller's bug). */
  send(message: OutgoingMessage): Promise<SendResult>;
  close(): Promise<void>;
}

function singleAddress(value: string, field: string): void {
  if (/[\r\n]/.test(value)) throw new TypeError(`mail: ${field} must not contain line breaks`);
  const parsed = addressparser(value, { flatten: true });
  const address = parsed.length === 1 ? parsed[0]?.address : undefined;
  if (!address || !/^[^\s@]+@[^\s@]+$/.test(address)) throw new TypeError(`mail: ${field} must be exactly one email address`);
}

/**
 * Checks what a caller hands in: exactly one recipient (a list would turn one message into many
 * and make a bounce ambiguous), and no line breaks in header values.
 */
export function checkMessage(message: OutgoingMessage): void {
  singleAddress(message.to, 'to');
  if (message.replyTo !== undefined) singleAddress(message.replyTo, 'replyTo');
  if (/[\r\n]/.test(message.subject)) throw new TypeError('mail: subject must not contain line breaks');
  if (!/^[\w.:-]{1,100}$/.test(message.tag)) throw new TypeError('mail: tag must be 1 to 100 of [A-Za-z0-9_.:-]');
}

/** The nodemailer message for both transports: nothing is ever read from disk or fetched from a URL. */
export function mailOptions(message: OutgoingMessage, from: string, date: Date): SendMailOptions {
  return {
    from,
    ...(message.idempotencyKey !== undefined ? { messageId: idempotentMessageId(message.idempotencyKey, from) } : {}),
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html !== undefined ? { html: message.html } : {}),
    ...(message.replyTo !== undefined ? { replyTo: message.replyTo } : {}),
    date,
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** The Message-ID of a message with an idempotency key: the same for every send of it, in the sender's domain. */
export function idempotentMessageId(key: string, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)/.exec(from)?.[1] ?? 'localhost';
  return `<${createHash('sha256').update(key).digest('hex').slice(0, 32)}@${domain}>`;
}

/** A subject line from untrusted parts: one line (headers take no line breaks), at most 200 characters. */
export const subjectLine = (s: string) => s.replace(/[\r\n\t]+/g, ' ').slice(0, 200);
