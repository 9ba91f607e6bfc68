/**
 * The dashboard's outbox, `/api/dashboard/mail`: the mail Parcel keeps as files when no SMTP server
 * is configured, so a self-hoster sees what would have been sent. Plain types: these bodies are
 * built by hand on the server, not described by a schema.
 */

/** `smtp`: mail goes out through the configured server and nothing is kept. `files`: mail is kept, not sent. */
export type MailTransport = 'smtp' | 'files';

export interface OutboxMessageSummary {
  /** Sortable by time: `20260310T120000000Z-0123456789abcdef`. */
  id: string;
  to: string;
  subject: string;
  /** What the message is about, e.g. `transfer.sent`. */
  tag: string;
  createdAt: string;
}

/**
 * `GET /api/dashboard/mail`: the signed-in workspace's messages, newest first, at most 200.
 * Always empty with `transport: 'smtp'`. `GET /api/dashboard/mail/:id` answers the raw RFC 5322
 * message as `text/plain` (404 for an unknown id).
 */
export interface OutboxResponse {
  transport: MailTransport;
  messages: OutboxMessageSummary[];
}
