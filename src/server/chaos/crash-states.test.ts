// @module-tag scale-out — crashes and restarts against the configured database and storage
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { crc32 } from '@node-rs/crc32';
import { HeadObjectCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORPHAN_GRACE_MS } from '../files/stored.js';
import { runMaintenanceSweep, runTransferSweep } from '../assembly/worker.js';
import { listOutbox, readOutboxMessage } from '../mail/file-mailer.js';
import { decodeQuotedPrintable } from '../test/mail.js';
import { s3ForTest, startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';
import { notifyRecipients, retryDeferredNotifications } from '../transfers/send.js';
import { crcHex } from '../uploads/crc.js';
import { resumableUpload, writeSourceFile } from './client.js';
import { liveStorageKeys, orphanedNames, storedNames } from './verify.js';

/**
 * The states a process killed at the worst moment leaves behind, each made exactly (the chaos
 * suites reach them only by chance), and what must follow: a transfer ended but not yet purged
 * has its bytes deleted by the next revoke or sweep; bytes whose row is gone are swept once they
 * are an hour old (and not before); a sent transfer whose last import landed in a process that
 * died goes out (recipients mailed, transfer.ready emitted) at the next sweep; and a recipient is
 * mailed once however many senders race, and once when a sender dies between sending and
 * recording it, with a link that works.
 */

let server: TestServer;
let ws: TestWorkspace;
let key: string;
let tmpDir: string;

beforeAll(async () => {
  server = await startTestServer();
  // Stored bytes carry the real time as their mtime: the server's clock starts there.
  server.clock.set(new Date());
  ws = await server.createWorkspace({ plan: 'paid' });
  key = await ws.createKey(['transfers:read', 'transfers:write']);
  tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parcel-crash-states-'));
});
afterAll(async () => {
  await server?.stop();
  if (tmpDir) await fs.rm(tmpDir, { recursive: true, force: true });
});

const api = async (method: string, pathname: string, json?: unknown) => {
  const res = await server.fetch(`/api/v1${pathname}`, { method, token: key, json });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const query = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) => (await server.services.db.$client.query<T>(sql, params)).rows;
const storedSize = (fileId: string) => server.services.storage.size(fileId);

/** A transfer of one uploaded file, with recipients; sent unless `send` is false. */
async function uploadedTransfer(recipients: string[] = [], send = true) {
  const created = await api('POST', '/transfers', { files: [{ name: 'a.bin', size: 100_000 }], recipients });
  expect(created.status).toBe(201);
  const { id, files } = created.body as { id: string; files: { id: string; uploadToken: string }[] };
  const source = await writeSourceFile(path.join(tmpDir, `${id}.bin`), 100_000);
  await resumableUpload({ endpoint: `${server.url}/files/`, uploadUrl: `${server.url}/files/${files[0]!.id}`, token: files[0]!.uploadToken, source, chunkSize: Infinity });
  if (send) expect((await api('POST', `/transfers/${id}/finalize`, {})).status).toBe(200);
  return { id, fileId: files[0]!.id };
}

describe('a transfer ended by a process that died before deleting its bytes', () => {
  it('has them deleted by the revoke sent again, and by the next sweep', async () => {
    const revoked = await uploadedTransfer();
    const expired = await uploadedTransfer();
    // What endTransfer commits before it deletes the bytes.
    await query(`UPDATE transfers SET status = 'removed' WHERE id = $1`, [revoked.id]);
    await query(`UPDATE transfers SET status = 'expired' WHERE id = $1`, [expired.id]);
    expect(await storedSize(revoked.fileId)).toBe(100_000);

    const again = await api('POST', `/transfers/${revoked.id}/revoke`);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('removed');
    expect(await storedSize(revoked.fileId)).toBeNull();

    expect(await storedSize(expired.fileId)).toBe(100_000);
    await runTransferSweep(server.services);
    expect(await storedSize(expired.fileId)).toBeNull();
    expect(await query('SELECT id FROM transfers WHERE id = ANY($1) AND purged_at IS NULL', [[revoked.id, expired.id]])).toEqual([]);
  });
});

describe('bytes whose row was deleted before they were', () => {
  it('are swept once they are an hour old, and a live file\'s bytes never', async () => {
    const draft = await uploadedTransfer([], false);
    const live = await uploadedTransfer();
    // What deleteDraft commits before it deletes the bytes.
    await query('DELETE FROM files WHERE id = $1', [draft.fileId]);
    const names = () => storedNames(server.storageEnv.S3_BUCKET ? { s3: server.storageEnv } : { dataDir: server.dataDir });

    await runMaintenanceSweep(server.services);
    expect(await storedSize(draft.fileId), 'still within the grace a write in progress gets').toBe(100_000);

    server.clock.set(new Date(Date.now() + ORPHAN_GRACE_MS + 60_000));
    await runMaintenanceSweep(server.services);
    expect(await storedSize(draft.fileId)).toBeNull();
    expect((await names()).filter((n) => n.startsWith(draft.fileId))).toEqual([]);
    expect(await storedSize(live.fileId)).toBe(100_000);
    expect(orphanedNames(await names(), await liveStorageKeys(server.services))).toEqual([]);
    server.clock.set(new Date());
  });
});

describe('a sent transfer whose last import landed in a process that died before sending it out', () => {
  it('goes out at the next sweep: each recipient mailed once, transfer.ready emitted once', async () => {
    const recipient = `import-${randomBytes(3).toString('hex')}@example.test`;
    const created = await api('POST', '/transfers', { files: [], imports: [{ url: 'https://files.example.test/report.pdf', size: 5000 }], recipients: [recipient] });
    expect(created.status).toBe(201);
    const { id, imports } = created.body as { id: string; imports: { fileId: string }[] };
    expect((await api('POST', `/transfers/${id}/finalize`, {})).status).toBe(200);
    // What the importer commits (the bytes stored, the file complete) before the owner is told.
    const bytes = randomBytes(5000);
    await server.services.storage.write(imports[0]!.fileId, Readable.from([bytes]));
    await query(`UPDATE files SET state = 'complete', crc32 = $2, completed_at = now(), import_lease_until = NULL WHERE id = $1`, [imports[0]!.fileId, crcHex(crc32(bytes))]);

    await runTransferSweep(server.services);
    await runTransferSweep(server.services);
    expect(await query('SELECT ready_at IS NOT NULL AS ready FROM transfers WHERE id = $1', [id])).toEqual([{ ready: true }]);
    expect(await query(`SELECT type FROM events WHERE subject_id = $1`, [id])).toEqual([{ type: 'transfer.ready' }]);
    expect((await listOutbox(server.dataDir, ws.id)).filter((m) => m.to === recipient)).toHaveLength(1);
  });
});

describe('recipients of a sent transfer', () => {
  it('are mailed once each while three senders race for them', async () => {
    const recipients = ['race-a', 'race-b', 'race-c'].map((r) => `${r}-${randomBytes(3).toString('hex')}@example.test`);
    const { id } = await uploadedTransfer(recipients, false);
    // Sent (finalize committed) by a process that died before mailing anyone.
    await query('UPDATE transfers SET finalized_at = now() WHERE id = $1', [id]);
    // Messages handed to the mailer, counted: over SMTP nothing downstream would drop a second one.
    const handed: string[] = [];
    const { mailer } = server.services;
    const send = mailer.send.bind(mailer);
    mailer.send = async (message) => {
      handed.push(message.to);
      return send(message);
    };
    try {
      await Promise.all([notifyRecipients(server.services, id), notifyRecipients(server.services, id), retryDeferredNotifications(server.services)]);
    } finally {
      mailer.send = send;
    }
    expect(recipients.map((r) => handed.filter((to) => to === r).length)).toEqual([1, 1, 1]);
    const outbox = await listOutbox(server.dataDir, ws.id);
    expect(recipients.map((r) => outbox.filter((m) => m.to === r).length)).toEqual([1, 1, 1]);
    expect(await query('SELECT email FROM transfer_recipients WHERE transfer_id = $1 AND notified_at IS NULL', [id])).toEqual([]);
  });

  it('is mailed once when the sender died between sending and recording it, and the link in that mail works', async () => {
    const recipient = `crash-${randomBytes(3).toString('hex')}@example.test`;
    const { id } = await uploadedTransfer([recipient]);
    // The mail went out; the row that says so was never written.
    await query('UPDATE transfer_recipients SET notified_at = NULL WHERE transfer_id = $1', [id]);
    await runTransferSweep(server.services);

    const mails = (await listOutbox(server.dataDir, ws.id)).filter((m) => m.to === recipient);
    expect(mails).toHaveLength(1);
    expect(await query('SELECT notified_at IS NOT NULL AS notified FROM transfer_recipients WHERE transfer_id = $1', [id])).toEqual([{ notified: true }]);
    const raw = decodeQuotedPrintable((await readOutboxMessage(server.dataDir, ws.id, mails[0]!.id))!.toString());
    const token = /\?r=([A-Za-z0-9]+)/.exec(raw)?.[1];
    expect(token).toBeTruthy();
    const [{ slug }] = (await query<{ slug: string }>('SELECT slug FROM transfers WHERE id = $1', [id])) as [{ slug: string }];
    const visit = await server.fetch(`/api/public/transfers/${slug}/sessions`, { method: 'POST', json: { recipientToken: token } });
    expect(visit.status).toBe(201);
    const [attributed] = await query<{ email: string | null }>(
      'SELECT r.email FROM download_sessions s LEFT JOIN transfer_recipients r ON r.id = s.recipient_id WHERE s.transfer_id = $1',
      [id],
    );
    expect(attributed?.email).toBe(recipient);
  });
});

describe('an upload to S3 whose every part was stored by a process that died before completing it', () => {
  it('is completed, with its CRC-32, by the HEAD that finds it whole', async () => {
    const s3 = await s3ForTest();
    const own = await startTestServer(s3.env);
    try {
      const owner = await own.createWorkspace();
      const token = await owner.createKey(['transfers:read', 'transfers:write']);
      const bytes = randomBytes(300_000);
      const created = await own.fetch('/api/v1/transfers', { method: 'POST', token, json: { files: [{ name: 'parts.bin', size: bytes.length }] } });
      const { id, files } = (await created.json()) as { id: string; files: { id: string; uploadToken: string }[] };
      const file = files[0]!;
      const tus = { 'Tus-Resumable': '1.0.0', 'x-service-upload-token': file.uploadToken };
      expect((await own.fetch('/files/', { method: 'POST', headers: { ...tus, 'Upload-Length': String(bytes.length) } })).status).toBe(201);

      // What the PATCH did before it died: every byte stored as a part of the multipart upload, which it never completed.
      const bucket = new S3Client({
        endpoint: s3.env.S3_ENDPOINT,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: s3.env.S3_ACCESS_KEY_ID!, secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY! },
      });
      const info = await bucket.send(new HeadObjectCommand({ Bucket: s3.env.S3_BUCKET, Key: `${file.id}.info` }));
      await bucket.send(new UploadPartCommand({ Bucket: s3.env.S3_BUCKET, Key: file.id, UploadId: info.Metadata!['upload-id'], PartNumber: 1, Body: bytes }));
      bucket.destroy();

      const head = await own.fetch(`/files/${file.id}`, { method: 'HEAD', headers: tus });
      expect(head.status).toBe(200);
      expect(head.headers.get('upload-offset')).toBe(String(bytes.length));
      const got = (await (await own.fetch(`/api/v1/transfers/${id}`, { token })).json()) as { files: { state: string; crc32: string | null }[] };
      expect(got.files).toMatchObject([{ state: 'complete', crc32: crcHex(crc32(bytes)) }]);
      expect(await own.services.storage.size(file.id)).toBe(bytes.length);
    } finally {
      await own.stop();
      await s3.stop();
    }
  });
});
