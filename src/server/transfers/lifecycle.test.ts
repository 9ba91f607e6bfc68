// @module-tag scale-out — deletions and sweeps of stored files
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadSessionSchema, PublicTransferSchema } from '../../contract/public.js';
import { CreateTransferResponseSchema, DownloadLinksSchema, TransferDownloadsSchema, TransferSchema } from '../../contract/transfers.js';
import { events } from '../db/schema/index.js';
import { startTestServer, type TestServer } from '../test/harness.js';
import { crcOf, randomFile, tusUpload } from '../test/uploads.js';

/**
 * The whole life of a transfer through nothing but HTTP, a standard tus client and a real SMTP
 * server: create, upload, send, the recipients' mail, a recipient's visit with a file download and
 * a resumed zip download, and the owner's receipts.
 */
const inbox: { to: string; raw: string }[] = [];
let smtp: SMTPServer;
let smtpPort: number;
let server: TestServer;
let key: string;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('bounce@')) {
        const err = Object.assign(new Error('550 5.1.1 No such user'), { responseCode: 550 });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString('utf8')));
      stream.on('end', () => {
        for (const rcpt of session.envelope.rcptTo) inbox.push({ to: rcpt.address, raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  smtpPort = (smtp.server.address() as { port: number }).port;
  server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });
  const ws = await server.createWorkspace({ plan: 'paid' });
  key = await ws.createKey(['transfers:write']);
});

afterAll(async () => {
  await server.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** Quoted-printable soft breaks and escapes undone, so links can be read out of the raw message. */
const decodeQp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

describe('a transfer from creation to receipts', () => {
  it('uploads, sends, mails personal links, serves a recipient visit and records it', async () => {
    const report = randomFile(300_000);
    const photo = randomFile(1_200_000);
    const created = await server.fetch('/api/v1/transfers', {
      method: 'POST',
      token: key,
      json: {
        title: 'Q3 <b>report</b>',
        message: 'Numbers inside.',
        recipients: ['Alice@Example.test', 'bob@example.test', 'bounce@example.test'],
        files: [
          { name: 'report.pdf', size: report.length, mimeType: 'application/pdf' },
          { name: 'photo.jpg', size: photo.length, mimeType: 'image/jpeg', path: 'pictures/2026' },
        ],
      },
    });
    expect(created.status).toBe(201);
    const draft = CreateTransferResponseSchema.parse(await created.json());

    // Both files through a standard tus client, with their upload tokens.
    const [reportTarget, photoTarget] = draft.files;
    await tusUpload(report, { endpoint: `${server.url}/files/`, token: reportTarget!.uploadToken, chunkSize: 128 * 1024 });
    await tusUpload(photo, { endpoint: `${server.url}/files/`, token: photoTarget!.uploadToken, chunkSize: 512 * 1024 });

    const sent = await server.fetch(`/api/v1/transfers/${draft.id}/finalize`, { method: 'POST', token: key });
    expect(sent.status).toBe(200);
    const transfer = TransferSchema.parse(await sent.json());
    expect(transfer.recipients).toEqual(['alice@example.test', 'bob@example.test', 'bounce@example.test']);
    expect(transfer.files.map((f) => f.crc32)).toEqual([crcOf(report), crcOf(photo)]);

    // Each recipient gets one mail with a personal link; a second finalize mails nobody.
    expect(inbox.map((m) => m.to).sort()).toEqual(['alice@example.test', 'bob@example.test']);
    await server.fetch(`/api/v1/transfers/${draft.id}/finalize`, { method: 'POST', token: key });
    expect(inbox).toHaveLength(2);
    const aliceMail = decodeQp(inbox.find((m) => m.to === 'alice@example.test')!.raw);
    // The title is untrusted text: the HTML part carries it escaped.
    expect(aliceMail).toContain('&lt;b&gt;report&lt;/b&gt;');
    const link = new URL(aliceMail.match(/https?:\/\/[^\s"<>]+\/t\/[0-9A-Za-z]+\?r=[0-9A-Za-z]+/)![0]);
    const slug = link.pathname.split('/').pop()!;
    expect(slug).toBe(transfer.slug);

    // The recipient's page: what they may see, then one visit with their personal token.
    const page = PublicTransferSchema.parse(await (await server.fetch(`/api/public/transfers/${slug}`)).json());
    expect(page.files.map((f) => [f.name, f.path, f.sizeBytes])).toEqual([
      ['report.pdf', null, report.length],
      ['photo.jpg', 'pictures/2026', photo.length],
    ]);
    const visit = DownloadSessionSchema.parse(
      await (await server.fetch(`/api/public/transfers/${slug}/sessions`, { method: 'POST', json: { recipientToken: link.searchParams.get('r') } })).json(),
    );
    const reportUrl = new URL(visit.files.find((f) => f.id === reportTarget!.id)!.url);
    const fileRes = await server.fetch(reportUrl.pathname);
    expect(fileRes.status).toBe(200);
    expect(Buffer.from(await fileRes.arrayBuffer()).equals(report)).toBe(true);

    // The zip, half now and the rest resumed with Range + If-Range, joins into a valid archive.
    const zipPath = new URL(visit.zip!.url).pathname;
    const head = await server.fetch(zipPath, { headers: { range: 'bytes=0-399999' } });
    expect(head.status).toBe(206);
    const etag = head.headers.get('etag')!;
    const total = Number(head.headers.get('content-range')!.split('/')[1]);
    const first = Buffer.from(await head.arrayBuffer());
    const rest = await server.fetch(zipPath, { headers: { range: `bytes=${first.length}-`, 'if-range': etag } });
    expect(rest.status).toBe(206);
    const zip = Buffer.concat([first, Buffer.from(await rest.arrayBuffer())]);
    expect(zip.length).toBe(total);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-lifecycle-'));
    try {
      fs.writeFileSync(path.join(dir, 'all.zip'), zip);
      execFileSync('unzip', ['-t', '-q', path.join(dir, 'all.zip')]);
      execFileSync('unzip', ['-q', path.join(dir, 'all.zip'), '-d', path.join(dir, 'out')]);
      expect(fs.readFileSync(path.join(dir, 'out/report.pdf')).equals(report)).toBe(true);
      expect(fs.readFileSync(path.join(dir, 'out/pictures/2026/photo.jpg')).equals(photo)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }

    // The owner sees the visit attributed to Alice, Bob not yet, and the bounced address.
    const links = DownloadLinksSchema.parse(await (await server.fetch(`/api/v1/transfers/${draft.id}/download-links`, { token: key })).json());
    expect(links.files.map((f) => f.crc32)).toEqual([crcOf(report), crcOf(photo)]);
    const receipts = await waitFor(async () => {
      const r = TransferDownloadsSchema.parse(await (await server.fetch(`/api/v1/transfers/${draft.id}/downloads`, { token: key })).json());
      return r.downloads.length === 2 && r.downloads.every((d) => d.completedAt) ? r : null;
    });
    expect(new Set(receipts.downloads.map((d) => d.sessionId))).toEqual(new Set([visit.sessionId]));
    expect(receipts.downloads.map((d) => [d.fileName, d.recipientEmail]).sort()).toEqual([
      [null, 'alice@example.test'],
      ['report.pdf', 'alice@example.test'],
    ]);
    expect(receipts.totalDownloads).toBe(2);
    const byEmail = Object.fromEntries(receipts.recipients.map((r) => [r.email, r]));
    expect(byEmail['alice@example.test']).toMatchObject({ downloaded: true, opened: false, bouncedAt: null });
    expect(byEmail['alice@example.test']!.notifiedAt).not.toBeNull();
    expect(byEmail['bob@example.test']).toMatchObject({ downloaded: false });
    expect(byEmail['bounce@example.test']).toMatchObject({ notifiedAt: null, bounceKind: 'permanent' });
    expect(byEmail['bounce@example.test']!.bouncedAt).not.toBeNull();

    const reloaded = TransferSchema.parse(await (await server.fetch(`/api/v1/transfers/${draft.id}`, { token: key })).json());
    expect(reloaded.downloadCount).toBe(1);
    const types = (await server.services.db.select().from(events).where(eq(events.subjectId, draft.id))).map((e) => e.type).sort();
    expect(types).toEqual(['transfer.downloaded', 'transfer.ready']);
  });
});

async function waitFor<T>(probe: () => Promise<T | null>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
