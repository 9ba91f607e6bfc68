import type { OutgoingMessage } from '../mail/message.js';
import type { TestServer } from './harness.js';
/** Undoes quoted-printable (soft line breaks, `=XX` bytes), so that a kept message reads as sent, a link wrapped across lines as one. */
export function decodeQuotedPrintable(raw: string): string {
  const soft = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i]!));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Every message the server's mailer is handed from now on, in order (it still sends each as usual). */
export function recordSentMail(server: Pick<TestServer, 'services'>): OutgoingMessage[] {
  const sent: OutgoingMessage[] = [];
  const { mailer } = server.services;
  const send = mailer.send.bind(mailer);
  mailer.send = async (message) => {
    sent.push(message);
    return send(message);
  };
  return sent;
}
