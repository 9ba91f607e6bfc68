import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { transfers } from '../db/schema/index.js';
import { download, seedTransfer, startSession } from '../test/transfers.js';
import type { OutgoingMessage, SendResult } from '../mail/message.js';
import { startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';
import { remindUnseenBeforeExpiry, retryDownloadNotifications } from './sender-mail.js';

let server: TestServer;
let ws: TestWorkspace;
/** Every message handed to the mailer; `answer` decides what the mail server says. */
const sent: OutgoingMessage[] = [];
let answer: SendResult['status'] = 'sent';
const HOUR = 3_600_000;

beforeAll(async () => {
  server = await startTestServer();
  ws = await server.createWorkspace({ plan: 'paid' });
  const { mailer } = server.services;
  const send = mailer.send.bind(mailer);
  mailer.send = async (message) => {
    sent.push(message);
    if (answer === 'deferred') return { status: 'deferred', response: '421 try later' };
    return send(message);
  };
});
afterAll(() => server.stop());
beforeEach(() => {
  sent.length = 0;
  answer = 'sent';
});

const toSender = () => sent.filter((m) => m.to === ws.email);
/** The download mail is sent right after the response starts; wait for it rather than sleep. */
async function waitForMail(count: number) {
  for (let i = 0; i < 100 && toSender().length < count; i += 1) await new Promise((r) => setTimeout(r, 20));
  return toSender();
}

describe('the sender hears of downloads', () => {
  it('mails the workspace once per visit, naming the recipient and the file, never for repeats in the same visit', async () => {
    const t = await seedTransfer(server, {
      workspaceId: ws.id,
      title: 'Q3 <numbers>',
      files: [{ name: 'report.pdf', data: Buffer.from('pdf bytes') }, { name: 'b.txt', data: Buffer.from('b') }],
      recipients: ['grace@example.test'],
    });
    const visit = await startSession(server, t.transfer.slug, { recipientToken: t.recipientTokens.get('grace@example.test')! });
    await download(server, visit.files[0]!.url);
    const [mail] = await waitForMail(1);
    expect(mail!.subject).toBe('Downloaded: Q3 <numbers>');
    expect(mail!.tag).toBe('transfer.downloaded');
    expect(mail!.text).toContain('grace@example.test started downloading report.pdf.');
    expect(mail!.text).toContain(`/transfers/${t.transfer.id}`);
    expect(String(mail!.html)).toContain('“Q3 &lt;numbers&gt;” was downloaded');

    // The rest of the same visit: no more mail. A new visit: one more.
    await download(server, visit.files[1]!.url);
    await download(server, visit.files[0]!.url);
    const anonymous = await startSession(server, t.transfer.slug);
    await download(server, anonymous.zip!.url);
    const mails = await waitForMail(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(toSender()).toHaveLength(2);
    expect(mails[1]!.text).toContain('Someone with the link started downloading all files as a zip.');
  });

  it('stays quiet when the transfer\'s download notifications are off', async () => {
    const t = await seedTransfer(server, { workspaceId: ws.id, files: [{ name: 'a.txt', data: Buffer.from('a') }] });
    await server.services.db.update(transfers).set({ notifyDownloads: false }).where(eq(transfers.id, t.transfer.id));
    const visit = await startSession(server, t.transfer.slug);
    await download(server, visit.files[0]!.url);
    await new Promise((r) => setTimeout(r, 200));
    expect(await retryDownloadNotifications(server.services)).toBe(0);
    expect(toSender()).toHaveLength(0);
  });

  it('tries again on the next sweep when the mail server said "later"', async () => {
    const t = await seedTransfer(server, { workspaceId: ws.id, files: [{ name: 'a.txt', data: Buffer.from('a') }] });
    answer = 'deferred';
    const visit = await startSession(server, t.transfer.slug);
    await download(server, visit.files[0]!.url);
    await waitForMail(1);
    answer = 'sent';
    for (let i = 0; i < 50 && (await retryDownloadNotifications(server.services)) === 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(toSender()).toHaveLength(2);
    expect(await retryDownloadNotifications(server.services)).toBe(0);
  });
});

describe('the reminder before expiry', () => {
  it('mails once, a day before expiry, only when nobody downloaded and reminders are on', async () => {
    const unseen = await seedTransfer(server, { workspaceId: ws.id, title: 'Unseen', files: [{ name: 'a.txt', data: Buffer.from('a') }], recipients: ['ada@example.test'], expiresInMs: 30 * HOUR });
    const seen = await seedTransfer(server, { workspaceId: ws.id, title: 'Seen', files: [{ name: 'a.txt', data: Buffer.from('a') }], expiresInMs: 30 * HOUR });
    const quiet = await seedTransfer(server, { workspaceId: ws.id, title: 'Quiet', files: [{ name: 'a.txt', data: Buffer.from('a') }], expiresInMs: 30 * HOUR });
    await server.services.db.update(transfers).set({ downloadCount: 1 }).where(eq(transfers.id, seen.transfer.id));
    await server.services.db.update(transfers).set({ notifyBeforeExpiry: false }).where(eq(transfers.id, quiet.transfer.id));

    expect(await remindUnseenBeforeExpiry(server.services)).toBe(0); // 30 hours left: not yet
    server.clock.advance(7 * HOUR);
    expect(await remindUnseenBeforeExpiry(server.services)).toBe(1);
    expect(await remindUnseenBeforeExpiry(server.services)).toBe(0);
    const [mail] = toSender();
    expect(mail!.subject).toBe('Expires tomorrow, not downloaded yet: Unseen');
    expect(mail!.text).toContain('It was sent to ada@example.test.');
    expect(mail!.text).toContain(`/transfers/${unseen.transfer.id}`);
    expect(toSender()).toHaveLength(1);
  });
});
