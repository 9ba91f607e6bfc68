import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { classifySmtpError } from './smtp-mailer.js';
import { createMailer, type Mailer, type OutgoingMessage } from './mailer.js';

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

/** A real SMTP server on a free loopback port; recipients at reject.test / later.test are refused. */
let smtp: SMTPServer;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const fail = (code: number, text: string) => callback(Object.assign(new Error(text), { responseCode: code }));
      if (address.address.endsWith('@reject.test')) return fail(550, 'No such user here');
      if (address.address.endsWith('@later.test')) return fail(450, 'Mailbox busy, try again later');
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

const mailers: Mailer[] = [];
afterEach(async () => {
  await Promise.all(mailers.splice(0).map((m) => m.close()));
});

function mailerFor(smtpUrl: string): Mailer {
  const config = loadConfig({ DATA_DIR: '/nonexistent-mail-test', SMTP_URL: smtpUrl, MAIL_FROM: 'Parcel <no-reply@parcel.test>' });
  const mailer = createMailer(config, createLogger('silent'), new ManualClock(new Date('2026-03-10T12:00:00Z')));
  mailers.push(mailer);
  return mailer;
}

const message = (to: string, overrides: Partial<OutgoingMessage> = {}): OutgoingMessage => ({
  to,
  subject: 'Files for you: Q1 report',
  text: 'Download them here: http://127.0.0.1/t/abc#key',
  tag: 'transfer.sent',
  workspaceId: 'ws_test',
  ...overrides,
});

/** The headers of a raw message, unfolded, by lower-case name. */
function headersOf(raw: string): Map<string, string> {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return new Map(head.split(/\r?\n/).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
}

describe('SMTP mailer', () => {
  it('delivers to the SMTP server with the configured From, the To, the Subject and both bodies', async () => {
    const mailer = mailerFor(`smtp://127.0.0.1:${port}`);
    const before = received.length;
    const result = await mailer.send(
      message('alice@example.test', { html: '<p>Download them <a href="http://127.0.0.1/t/abc">here</a></p>', replyTo: 'owner@example.test' }),
    );
    expect(result.status).toBe('sent');
    expect(received).toHaveLength(before + 1);
    const got = received.at(-1)!;
    expect(got.from).toBe('no-reply@parcel.test');
    expect(got.to).toEqual(['alice@example.test']);
    const headers = headersOf(got.raw);
    expect(headers.get('from')).toBe('Parcel <no-reply@parcel.test>');
    expect(headers.get('to')).toBe('alice@example.test');
    expect(headers.get('reply-to')).toBe('owner@example.test');
    expect(headers.get('subject')).toBe('Files for you: Q1 report');
    expect(headers.get('date')).toBe('Tue, 10 Mar 2026 12:00:00 +0000');
    if (result.status === 'sent') expect(headers.get('message-id')).toBe(result.messageId);
    expect(headers.get('content-type')).toMatch(/^multipart\/alternative/);
    expect(got.raw).toContain('Download them here: http://127.0.0.1/t/abc#key');
    expect(got.raw).toMatch(/Content-Type: text\/html; charset=utf-8\r\n[^]*<a href="http:\/\/127\.0\.0\.1\/t\/abc">here<\/a>/);
  });

  it('reuses pooled connections for several messages', async () => {
    const mailer = mailerFor(`smtp://127.0.0.1:${port}`);
    const before = received.length;
    const results = await Promise.all(['a', 'b', 'c'].map((n) => mailer.send(message(`${n}@example.test`))));
    expect(results.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
    expect(received.slice(before).map((r) => r.to[0]).sort()).toEqual(['a@example.test', 'b@example.test', 'c@example.test']);
  });

  it('reports a 550 for the recipient as a permanent bounce with the server response', async () => {
    const mailer = mailerFor(`smtp://127.0.0.1:${port}`);
    const before = received.length;
    const result = await mailer.send(message('nobody@reject.test'));
    expect(result).toEqual({ status: 'bounced', kind: 'permanent', response: expect.stringContaining('550 No such user here') });
    expect(received).toHaveLength(before);
  });

  it('reports a 450 for the recipient as deferred', async () => {
    const mailer = mailerFor(`smtp://127.0.0.1:${port}`);
    const result = await mailer.send(message('busy@later.test'));
    expect(result).toEqual({ status: 'deferred', response: expect.stringContaining('450 Mailbox busy') });
  });

  it('reports an SMTP port nobody listens on as deferred rather than throwing', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const mailer = mailerFor(`smtp://127.0.0.1:${freePort}`);
    const result = await mailer.send(message('alice@example.test'));
    expect(result.status).toBe('deferred');
    if (result.status === 'deferred') expect(result.response).toMatch(/ECONNREFUSED|connect/i);
  });

  it('throws for a message with more than one recipient or a header line break (a caller bug)', async () => {
    const mailer = mailerFor(`smtp://127.0.0.1:${port}`);
    await expect(mailer.send(message('a@example.test, b@example.test'))).rejects.toThrow(/exactly one/);
    await expect(mailer.send(message('a@example.test', { subject: 'Hi\r\nBcc: x@example.test' }))).rejects.toThrow(/line breaks/);
  });
});

describe('classifySmtpError', () => {
  it('does not count a refused sender or refused credentials as a bounce of the recipient', () => {
    expect(classifySmtpError({ message: 'x', code: 'EENVELOPE', command: 'MAIL FROM', responseCode: 550, response: '550 sender rejected' })).toEqual({
      result: { status: 'deferred', response: '550 sender rejected' },
      misconfigured: true,
    });
    expect(classifySmtpError({ message: 'x', code: 'EAUTH', command: 'AUTH PLAIN', responseCode: 535, response: '535 bad credentials' }).result.status).toBe(
      'deferred',
    );
  });

  it('counts a 5xx answer to the message data as a bounce', () => {
    expect(classifySmtpError({ message: 'x', code: 'EMESSAGE', command: 'DATA', responseCode: 554, response: '554 rejected as spam' }).result).toEqual({
      status: 'bounced',
      kind: 'permanent',
      response: '554 rejected as spam',
    });
  });
});
