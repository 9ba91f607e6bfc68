import fs from 'node:fs/promises';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { crc32 } from '@node-rs/crc32';
import { expect } from 'vitest';
import { ManualClock } from '../core/clock.js';
import { loadConfig } from '../config.js';
import { connect } from '../db/connection.js';
import { createLogger } from '../logger.js';
import { mailDir } from '../mail/file-mailer.js';
import { assembleServices } from '../assembly/runtime.js';
import type { Services } from '../services.js';
import { crcHex } from '../uploads/crc.js';
import { apiCall, downloadCrc } from './client.js';
import type { UploadOutcome } from './upload-scenario.js';

/**
 * What the chaos suites check once the dust has settled, from the client's side (the API and the
 * /dl links) and from the operator's (the rows, the stored bytes, the mail outbox, the storage).
 */

interface TransferBody {
  status: string;
  files: { id: string; state: string; crc32: string | null; sizeBytes: number }[];
}

/**
 * Every kept transfer shows its file complete with the source's CRC-32 and serves exactly those
 * bytes at its /dl link; a revoked one is `removed`; a discarded draft is gone.
 */
export async function verifyThroughApi(base: string, token: string, outcomes: UploadOutcome[]): Promise<void> {
  for (const o of outcomes) {
    const got = await apiCall(base, { method: 'GET', path: `/transfers/${o.transferId}`, token });
    const label = `upload ${o.index} (${o.size} bytes, ${o.fate})`;
    if (o.fate === 'discarded') {
      expect(got.status, label).toBe(404);
      continue;
    }
    expect(got.status, label).toBe(200);
    const transfer = got.body as TransferBody;
    if (o.fate === 'revoked') {
      expect(transfer.status, label).toBe('removed');
      continue;
    }
    expect(transfer.status, label).toBe('active');
    expect(transfer.files.map((f) => [f.id, f.state, f.sizeBytes, f.crc32]), label).toEqual([[o.fileId, 'complete', o.size, o.crc32]]);
    const links = await apiCall(base, { method: 'GET', path: `/transfers/${o.transferId}/download-links`, token });
    expect(links.status, label).toBe(200);
    const [link] = (links.body as { files: { fileId: string; url: string }[] }).files;
    expect(link?.fileId, label).toBe(o.fileId);
    expect(await downloadCrc(link!.url), label).toEqual({ status: 200, crc32: o.crc32, length: o.size });
  }
}

/** How many `transfer.sent` mails each address got, from the file mailer's outbox of every process that may send. */
export async function sentMailCounts(dataDirs: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const dir of dataDirs) {
    const index = await fs.readFile(path.join(mailDir(dir), 'index.jsonl'), 'utf8').catch(() => '');
    for (const line of index.split('\n')) {
      if (!line) continue;
      const entry = JSON.parse(line) as { to: string; tag: string };
      if (entry.tag === 'transfer.sent') counts.set(entry.to, (counts.get(entry.to) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * Each recipient of a kept transfer was mailed exactly once; nobody of a discarded draft was; a
 * revoked transfer's recipients at most once (sent, then killed before mailing, then revoked: the
 * mail that was never sent is not sent for a link that no longer works).
 */
export function expectEachRecipientMailedOnce(counts: Map<string, number>, outcomes: UploadOutcome[]): void {
  const mailed = (o: UploadOutcome) => {
    const n = counts.get(o.recipient) ?? 0;
    return o.fate === 'revoked' && n <= 1 ? 'at most once' : n;
  };
  const want = { kept: 1, discarded: 0, revoked: 'at most once' };
  const got = Object.fromEntries(outcomes.map((o) => [o.recipient, mailed(o)]));
  expect(got).toEqual(Object.fromEntries(outcomes.map((o) => [o.recipient, want[o.fate]])));
}

/** Services on the server's own database and storage, in this process, on a clock of the test's: to run the sweeps and read rows. */
export async function operatorServices(settings: { databaseUrl: string; dataDir: string; env?: Record<string, string>; now: Date }) {
  const config = loadConfig({ ...settings.env, DATABASE_URL: settings.databaseUrl, DATA_DIR: settings.dataDir, PORT: '0', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://127.0.0.1' });
  const db = connect(settings.databaseUrl, 4);
  const clock = new ManualClock(settings.now);
  const services = await assembleServices(config, { db, log: createLogger('silent'), clock });
  return {
    services,
    clock,
    close: async () => {
      await services.rateLimits.close().catch(() => undefined);
      await services.mailer.close();
      await db.$client.end();
    },
  };
}

/**
 * No file is complete with other bytes than its CRC-32 says: every complete file whose owner still
 * holds bytes is read back from storage, whole, and its CRC-32 compared with the row's.
 */
export async function expectCompleteFilesMatchStorage(services: Services): Promise<number> {
  const { rows } = await services.db.$client.query<{ id: string; storage_key: string; size_bytes: string; crc32: string | null }>(
    `SELECT f.id, f.storage_key, f.size_bytes, f.crc32 FROM files f JOIN transfers t ON t.id = f.owner_id
     WHERE f.owner_kind = 'transfer' AND f.state = 'complete' AND t.purged_at IS NULL ORDER BY f.seq`,
  );
  for (const row of rows) {
    let state = 0;
    let length = 0;
    for await (const chunk of services.storage.read(row.storage_key)) {
      state = crc32(chunk as Buffer, state);
      length += (chunk as Buffer).length;
    }
    expect({ id: row.id, crc32: crcHex(state), length }).toEqual({ id: row.id, crc32: row.crc32, length: Number(row.size_bytes) });
  }
  return rows.length;
}

/**
 * Every name in file storage: DATA_DIR/files on disk, or every object of the bucket. The tus stores
 * keep a record beside each upload (`<id>.json` on disk, `<id>.info` in a bucket) and S3 an
 * incomplete last part (`<id>.part`).
 */
export async function storedNames(where: { dataDir: string } | { s3: Record<string, string> }): Promise<string[]> {
  if ('dataDir' in where) return (await fs.readdir(path.join(where.dataDir, 'files')).catch(() => [] as string[])).sort();
  const env = where.s3;
  const client = new S3Client({
    endpoint: env.S3_ENDPOINT,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID!, secretAccessKey: env.S3_SECRET_ACCESS_KEY! },
  });
  const names: string[] = [];
  try {
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: env.S3_BUCKET, ContinuationToken: token }));
      for (const o of page.Contents ?? []) names.push(o.Key!);
      token = page.NextContinuationToken;
    } while (token);
  } finally {
    client.destroy();
  }
  return names.sort();
}

/**
 * The storage keys that may hold bytes: files (and previews) whose owner still exists and has not
 * ended. Anything else in storage is an orphan: bytes no row will ever serve or delete.
 */
export async function liveStorageKeys(services: Services): Promise<Set<string>> {
  const { rows } = await services.db.$client.query<{ key: string }>(
    `SELECT key FROM (
       SELECT f.storage_key AS key, f.owner_kind, f.owner_id, f.state FROM files f
       UNION ALL SELECT f.thumbnail_key, f.owner_kind, f.owner_id, f.state FROM files f WHERE f.thumbnail_key IS NOT NULL
     ) k
     WHERE k.state <> 'failed'
       AND NOT EXISTS (SELECT 1 FROM transfers t WHERE k.owner_kind = 'transfer' AND t.id = k.owner_id AND (t.status <> 'active' OR t.purged_at IS NOT NULL))`,
  );
  return new Set(rows.map((r) => r.key));
}

/** Names in storage that belong to no live key (a name is a key, or a key and a store's suffix). */
export function orphanedNames(names: string[], live: Set<string>): string[] {
  return names.filter((name) => !live.has(name.replace(/\.(json|info|part)$/, '')));
}
