import fs from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { apiCall, resumableUpload, writeSourceFile, type SourceFile } from './client.js';

/**
 * The client half of the upload chaos: many transfers created, uploaded with tus-js-client,
 * sent and in part discarded or revoked, several at once, while the server is killed under them.
 * Every step is retried as a careful client retries it; what the server must get right is checked
 * as soon as the client can see it (a file the API calls complete has the source's CRC-32).
 */

const MB = 1024 * 1024;

export interface UploadPlan {
  uploads: number;
  /** Largest source file. */
  maxBytes: number;
  /** Uploads in flight at once. */
  parallel: number;
  kills: number;
}

export const uploadPlan = (long: boolean): UploadPlan =>
  long ? { uploads: 100, maxBytes: 64 * MB, parallel: 4, kills: 10 } : { uploads: 12, maxBytes: 8 * MB, parallel: 3, kills: 3 };

/**
 * What happens to a transfer besides its upload: most are sent and kept; some drafts are discarded
 * while their upload is still running; some are revoked once sent. The last two leave bytes to delete.
 */
export type Fate = 'kept' | 'discarded' | 'revoked';

export interface PlannedUpload {
  index: number;
  size: number;
  fate: Fate;
  /** Bytes per PATCH (Infinity: the whole rest in one request). */
  chunkSize: number;
}

/**
 * Sizes from 0 to `maxBytes`: the edges (empty, one byte, the largest) and otherwise skewed small,
 * so that the long form's total stays a few gigabytes; fates and PATCH sizes varied across them.
 */
export function planUploads(plan: UploadPlan, random: () => number): PlannedUpload[] {
  const edges = [0, 1, plan.maxBytes, 5 * MB + 1];
  return Array.from({ length: plan.uploads }, (_, index) => {
    const size = index < edges.length ? Math.min(edges[index]!, plan.maxBytes) : Math.floor(random() ** 2 * plan.maxBytes);
    // Only a file with bytes still to come when the draft is discarded can be cut off by it.
    const fate: Fate = index % 6 === 5 && size >= MB ? 'discarded' : index % 6 === 2 ? 'revoked' : 'kept';
    const chunkSize = [Infinity, 2 * MB, 5 * MB + 3][index % 3]!;
    return { index, size, fate, chunkSize };
  });
}

export interface UploadOutcome extends PlannedUpload {
  transferId: string;
  fileId: string;
  recipient: string;
  crc32: string;
  /** Whether the upload reached its end (a discarded draft's may not). */
  uploaded: boolean;
}

export interface ScenarioOptions {
  plan: UploadPlan;
  uploads: PlannedUpload[];
  /** Where source files are written (each removed once its upload is done). */
  workDir: string;
  token: string;
  /** The base URL a client uses for each request (one server, or a load balancer before two). */
  base: string;
  /** Makes Idempotency-Keys unique to this run. */
  runId: string;
  /** Counts every byte the clients send, resends included: what the kills are timed by. */
  onBytesSent: (n: number) => void;
}

interface CreatedTransfer {
  id: string;
  files: { id: string; uploadToken: string }[];
}

interface TransferBody {
  status: string;
  files: { id: string; state: string; crc32: string | null; sizeBytes: number }[];
}

/**
 * Creates every transfer first (before any byte is sent, so before any kill: a create cut off by a
 * kill holds its Idempotency-Key for the claim's minute-long lease, see the report), then runs every
 * upload, `parallel` at a time, to its end; returns what happened to each.
 */
export async function runUploads(options: ScenarioOptions): Promise<UploadOutcome[]> {
  const created: { planned: PlannedUpload; transfer: CreatedTransfer; recipient: string }[] = [];
  for (const planned of options.uploads) {
    const recipient = `recipient-${options.runId}-${planned.index}@example.test`;
    const res = await apiCall(options.base, {
      method: 'POST',
      path: '/transfers',
      token: options.token,
      idempotencyKey: `chaos-${options.runId}-${planned.index}`,
      json: { title: `Chaos ${planned.index}`, files: [{ name: `file-${planned.index}.bin`, size: planned.size }], recipients: [recipient] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    created.push({ planned, transfer: res.body as CreatedTransfer, recipient });
  }
  const queue = [...created];
  const outcomes: UploadOutcome[] = [];
  const lane = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) outcomes.push(await runOne(options, next.planned, next.transfer, next.recipient));
  };
  await Promise.all(Array.from({ length: options.plan.parallel }, lane));
  return outcomes.sort((a, b) => a.index - b.index);
}

async function runOne(options: ScenarioOptions, planned: PlannedUpload, transfer: CreatedTransfer, recipient: string): Promise<UploadOutcome> {
  const { base, token } = options;
  const source: SourceFile = await writeSourceFile(path.join(options.workDir, `source-${planned.index}.bin`), planned.size);
  try {
    const file = transfer.files[0]!;

    let sentBefore = 0;
    let discarding: Promise<unknown> | null = null;
    const discard = () =>
      (discarding ??= apiCall(base, { method: 'DELETE', path: `/transfers/${transfer.id}`, token }).then((res) => {
        // 404: a DELETE sent again after its answer was lost with a killed server finds the draft gone.
        expect([200, 404], JSON.stringify(res.body)).toContain(res.status);
      }));
    const upload = resumableUpload({
      endpoint: `${base}/files/`,
      uploadUrl: `${base}/files/${file.id}`,
      token: file.uploadToken,
      source,
      chunkSize: planned.chunkSize,
      onProgress: (sent) => {
        // `sent` restarts from the resumed offset after each retry: count only what is new to this attempt.
        if (sent > sentBefore) options.onBytesSent(sent - sentBefore);
        sentBefore = sent;
        if (planned.fate === 'discarded' && sent >= planned.size / 2) void discard();
      },
    }).then(
      () => true,
      (err: unknown) => {
        // Only a discarded draft may refuse its upload (its file is gone: 401, 404 or 410).
        if (planned.fate !== 'discarded') throw err;
        return false;
      },
    );
    const uploaded = await upload;
    const outcome: UploadOutcome = { ...planned, transferId: transfer.id, fileId: file.id, recipient, crc32: source.crc32, uploaded };

    if (planned.fate === 'discarded') {
      await discard();
      return outcome;
    }

    // What the client sees as soon as its upload is done: the file complete, with its own bytes' CRC-32.
    const got = await apiCall(base, { method: 'GET', path: `/transfers/${transfer.id}`, token });
    expect(got.status).toBe(200);
    const label = `upload ${planned.index} (${planned.size} bytes, PATCHes of ${planned.chunkSize}) right after tus-js-client reported success`;
    expect((got.body as TransferBody).files.map((f) => [f.id, f.state, f.sizeBytes, f.crc32]), label).toEqual([[file.id, 'complete', planned.size, source.crc32]]);

    // Sending is idempotent by itself: a second finalize after a lost answer changes nothing and mails nobody again.
    const sent = await apiCall(base, { method: 'POST', path: `/transfers/${transfer.id}/finalize`, token, json: {} });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);

    if (planned.fate === 'revoked') {
      const revoked = await apiCall(base, { method: 'POST', path: `/transfers/${transfer.id}/revoke`, token });
      expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
      expect((revoked.body as TransferBody).status).toBe('removed');
    }
    return outcome;
  } finally {
    await fs.rm(source.path, { force: true });
  }
}
