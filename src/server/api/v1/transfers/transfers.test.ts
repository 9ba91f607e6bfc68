// @module-tag scale-out — upload bytes land in the configured storage
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema } from '../../../../contract/errors.js';
import { CreateTransferResponseSchema, TransferListSchema, TransferSchema } from '../../../../contract/transfers.js';
import { events, files, transfers } from '../../../db/schema/index.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { sweepTransfers } from '../../../transfers/end.js';
import { markReadyIfComplete } from '../../../transfers/lifecycle.js';
import { loadTransfer } from '../../../transfers/serialize.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  const ws = await server.createWorkspace({ plan: 'paid' });
  key = await ws.createKey(['transfers:write']);
});
afterAll(() => server.stop());

const post = (path: string, json?: unknown, token = key) => server.fetch(`/api/v1${path}`, { method: 'POST', token, json });
const get = (path: string, token = key) => server.fetch(`/api/v1${path}`, { token });

async function createDraft(body: Record<string, unknown> = {}) {
  const res = await post('/transfers', { title: 'Q3 report', files: [{ name: 'a.txt', size: 5 }], ...body });
  expect(res.status).toBe(201);
  return CreateTransferResponseSchema.parse(await res.json());
}

/** Marks every file of a transfer uploaded, as the tus endpoint does when the last byte lands. */
async function completeFiles(transferId: string) {
  await server.services.db
    .update(files)
    .set({ state: 'complete', crc32: '00000000', completedAt: server.clock.now() })
    .where(eq(files.ownerId, transferId));
  await markReadyIfComplete(server.services, transferId);
}

describe('POST /transfers', () => {
  it('creates a draft with one upload target per file and a tus endpoint', async () => {
    const draft = await createDraft({ files: [{ name: 'a.txt', size: 5 }, { name: 'b.bin', size: 0, mimeType: 'Application/PDF', path: 'docs/2026' }] });
    expect(draft.files.map((f) => [f.name, f.size])).toEqual([['a.txt', 5], ['b.bin', 0]]);
    expect(draft.tusEndpoint).toBe('http://127.0.0.1/files/');
    expect(draft.files[0]!.uploadToken).toMatch(/^ut_/);
    expect(new Date(draft.files[0]!.uploadTokenExpiresAt).getTime() - server.clock.now().getTime()).toBe(7200 * 1000);
    const t = TransferSchema.parse(await (await get(`/transfers/${draft.id}`)).json());
    expect(t.finalizedAt).toBeNull();
    expect(t.fileCount).toBe(2);
    expect(t.sizeBytes).toBe(5);
    expect(t.files.map((f) => [f.name, f.mimeType, f.path, f.state])).toEqual([
      ['a.txt', 'application/octet-stream', null, 'uploading'],
      ['b.bin', 'application/pdf', 'docs/2026', 'uploading'],
    ]);
  });

  it('cleans control characters (NUL aside, which is refused) and bidirectional overrides out of file names', async () => {
    const draft = await createDraft({ files: [{ name: 'invoice\u202Efdp.exe', size: 1 }, { name: 'tab\there\u0007.txt', size: 1 }] });
    expect(draft.files.map((f) => f.name)).toEqual(['invoicefdp.exe', 'tabhere.txt']);
  });

  it.each([
    [{ files: [{ name: 'a', size: 1, path: '../../etc' }] }, 'files.0.path'],
    [{ files: [{ name: 'a', size: 1, path: 'C:/Windows' }] }, 'files.0.path'],
    [{ files: [{ name: 'a', size: 1, mimeType: 'text/plain; charset=utf-8' }] }, 'files.0.mimeType'],
    [{ files: [{ name: 'a', size: -1 }] }, 'files.0.size'],
    [{ files: [{ name: '', size: 1 }] }, 'files.0.name'],
    [{ files: [] }, 'files'],
    [{ files: [{ name: 'a', size: 1 }], e2ee: true, title: 'secret' }, 'title'],
    [{ files: [{ name: 'a', size: 1 }], e2ee: true, message: 'in the clear' }, 'message'],
    [{ files: [{ name: 'a', size: 1, path: 'Tax returns/2026' }], e2ee: true }, 'files.0.path'],
    [{ files: [{ name: '..', size: 1 }] }, 'files.0.name'],
    [{ files: [{ name: '.', size: 1 }] }, 'files.0.name'],
    [{ files: [], imports: [{ url: 'https://example.com/a.zip', name: '..' }] }, 'imports.0.name'],
    [{ files: [{ name: 'a', size: 1 }], recipients: ['not-an-email'] }, 'recipients.0'],
  ])('refuses %j naming %s', async (body, field) => {
    const res = await post('/transfers', body);
    expect(res.status).toBe(400);
    const err = ErrorSchema.parse(await res.json());
    expect((err.error.details.fields as { path: string }[]).map((f) => f.path)).toContain(field);
  });

  it('refuses a plain-http URL import (the operator has not allowed http), naming it and creating nothing', async () => {
    const before = await server.services.db.select().from(transfers);
    const res = await post('/transfers', { files: [], imports: [{ url: 'https://example.com/a.zip' }, { url: 'http://example.com/b.zip' }] });
    expect(res.status).toBe(400);
    const err = ErrorSchema.parse(await res.json());
    expect((err.error.details.fields as { path: string }[]).map((f) => f.path)).toEqual(['imports.1.url']);
    expect(await server.services.db.select().from(transfers)).toHaveLength(before.length);
  });

  it('keeps the free plan\'s expiry fixed and lets a paid plan choose within its range', async () => {
    const free = await server.createWorkspace();
    const freeKey = await free.createKey(['transfers:write']);
    const refused = await post('/transfers', { files: [{ name: 'a', size: 1 }], expiresAt: '2026-03-12T12:00:00Z' }, freeKey);
    expect(refused.status).toBe(402);
    const fixed = CreateTransferResponseSchema.parse(await (await post('/transfers', { files: [{ name: 'a', size: 1 }] }, freeKey)).json());
    expect(new Date(fixed.expiresAt).getTime() - server.clock.now().getTime()).toBe(7 * 86_400_000);

    const chosen = await createDraft({ expiresAt: '2026-03-12T12:00:00Z' });
    expect(chosen.expiresAt).toBe('2026-03-12T12:00:00.000Z');
    const tooFar = await post('/transfers', { files: [{ name: 'a', size: 1 }], expiresAt: '2030-01-01T00:00:00Z' });
    expect(tooFar.status).toBe(400);
  });

  it('refuses files over the plan\'s size ceiling', async () => {
    const res = await post('/transfers', { files: [{ name: 'huge', size: 251 * 1000 ** 3 }] });
    expect(res.status).toBe(400);
    expect(ErrorSchema.parse(await res.json()).error.details.maxBytes).toBe(250 * 1000 ** 3);
  });

  it('answers 402 out_of_credit when API uploads pass the included volume without credit, before accepting anything', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const k = await ws.createKey(['transfers:write']);
    const over = await post('/transfers', { files: [{ name: 'big', size: 10 * 1000 ** 3 + 1_000_000_000 }] }, k);
    expect(over.status).toBe(402);
    expect(ErrorSchema.parse(await over.json()).error.code).toBe('out_of_credit');
    const within = await post('/transfers', { files: [{ name: 'fits', size: 9 * 1000 ** 3 }] }, k);
    expect(within.status).toBe(201);
  });
});

describe('GET /transfers', () => {
  it('pages newest first with opaque cursors, stable while new transfers arrive', async () => {
    const ws = await server.createWorkspace();
    const k = await ws.createKey(['transfers:write']);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      server.clock.advance(1000);
      const res = await post('/transfers', { title: `t${i}`, files: [{ name: 'f', size: 1 }] }, k);
      ids.push(((await res.json()) as { id: string }).id);
    }
    const first = TransferListSchema.parse(await (await get('/transfers?limit=2', k)).json());
    expect(first.transfers.map((t) => t.title)).toEqual(['t4', 't3']);
    server.clock.advance(1000);
    await post('/transfers', { title: 'newer', files: [{ name: 'f', size: 1 }] }, k);
    const second = TransferListSchema.parse(await (await get(`/transfers?limit=2&cursor=${first.nextCursor}`, k)).json());
    expect(second.transfers.map((t) => t.title)).toEqual(['t2', 't1']);
    const third = TransferListSchema.parse(await (await get(`/transfers?limit=2&cursor=${second.nextCursor}`, k)).json());
    expect(third.transfers.map((t) => t.title)).toEqual(['t0']);
    expect(third.nextCursor).toBeNull();
    expect(third.transfers[0]).toMatchObject({ fileCount: 1, firstFileName: 'f', sizeBytes: 1 });
  });

  it('refuses a cursor from another workspace, a tampered one and an out-of-range limit', async () => {
    const other = await server.createWorkspace();
    const otherKey = await other.createKey(['transfers:read', 'transfers:write']);
    for (let i = 0; i < 2; i++) await post('/transfers', { files: [{ name: 'f', size: 1 }] }, otherKey);
    const page = TransferListSchema.parse(await (await get('/transfers?limit=1', otherKey)).json());
    expect(page.nextCursor).not.toBeNull();
    const foreign = await get(`/transfers?cursor=${page.nextCursor}`);
    expect(foreign.status).toBe(400);
    expect(ErrorSchema.parse(await foreign.json()).error.details.fields).toEqual([{ path: 'cursor', message: 'unknown cursor' }]);
    const tampered = await get(`/transfers?cursor=${page.nextCursor!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}`, otherKey);
    expect(tampered.status).toBe(400);
    for (const limit of ['0', '501', '1.5', 'abc']) expect((await get(`/transfers?limit=${limit}`)).status).toBe(400);
    expect((await get('/transfers?limit=500')).status).toBe(200);
  });

  it('never shows another workspace\'s transfers, and answers 404 for their ids', async () => {
    const other = await server.createWorkspace();
    const otherKey = await other.createKey(['transfers:write']);
    const theirs = (await (await post('/transfers', { files: [{ name: 'f', size: 1 }] }, otherKey)).json()) as { id: string };
    expect((await get(`/transfers/${theirs.id}`)).status).toBe(404);
    expect((await post(`/transfers/${theirs.id}/finalize`)).status).toBe(404);
    expect((await post(`/transfers/${theirs.id}/revoke`)).status).toBe(404);
    const mine = TransferListSchema.parse(await (await get('/transfers?limit=500')).json());
    expect(mine.transfers.some((t) => t.id === theirs.id)).toBe(false);
  });

  it('finds transfers by title or by any file name with q, literally and case-insensitively', async () => {
    const untitled = await createDraft({ title: null, files: [{ name: 'Holiday-PHOTO.png', size: 1 }, { name: 'notes.txt', size: 1 }] });
    const titled = await createDraft({ title: 'Photo shoot', files: [{ name: 'raw.cr3', size: 1 }] });
    const percent = await createDraft({ title: '100% done', files: [{ name: 'x_y.bin', size: 1 }] });
    const found = async (q: string) =>
      TransferListSchema.parse(await (await get(`/transfers?limit=500&q=${encodeURIComponent(q)}`)).json()).transfers.map((t) => t.id);

    expect(await found('photo')).toEqual(expect.arrayContaining([untitled.id, titled.id]));
    expect(await found('notes')).toEqual([untitled.id]);
    expect(await found('%')).toEqual([percent.id]);
    expect(await found('x_y')).toEqual([percent.id]);
    expect(await found('xy')).toEqual([]);
    // The other workspace's file names are never searched.
    const other = await server.createWorkspace();
    await post('/transfers', { files: [{ name: 'notes-of-another.txt', size: 1 }] }, await other.createKey(['transfers:write']));
    expect(await found('notes')).toEqual([untitled.id]);
  });

  it('finds and sorts a draft by the files added to it later (at once or one after another), renamed, resized or removed', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const k = await ws.createKey(['transfers:write']);
    const found = async (q: string) =>
      TransferListSchema.parse(await (await get(`/transfers?limit=500&q=${encodeURIComponent(q)}`, k)).json()).transfers.map((t) => t.id);
    const bySize = async () => TransferListSchema.parse(await (await get('/transfers?sort=size', k)).json()).transfers.map((t) => t.id);
    const draft = CreateTransferResponseSchema.parse(await (await post('/transfers', { title: 'Shoot', files: [{ name: 'first.jpg', size: 3 }] }, k)).json());
    const other = CreateTransferResponseSchema.parse(await (await post('/transfers', { title: 'Other', files: [{ name: 'o.bin', size: 10 }] }, k)).json());
    expect(await bySize()).toEqual([other.id, draft.id]);
    // Eight batches at once: each one's names must survive the others' (the names are kept per transfer).
    const added = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post(`/transfers/${draft.id}/files`, { files: [{ name: `batch-${i}-gecko.tif`, size: 1 }] }, k)),
    );
    expect(added.map((r) => r.status)).toEqual(Array(8).fill(201));
    for (let i = 0; i < 8; i++) expect(await found(`batch-${i}-gecko`)).toEqual([draft.id]);
    expect(await found('first.jpg')).toEqual([draft.id]);
    expect(await bySize()).toEqual([draft.id, other.id]);

    const first = draft.files[0]!;
    expect((await server.fetch(`/api/v1/transfers/${draft.id}/files/${first.id}`, { method: 'DELETE', token: k })).status).toBe(200);
    expect(await found('first.jpg')).toEqual([]);
    expect(await found('gecko')).toEqual([draft.id]);
    expect(await bySize()).toEqual([other.id, draft.id]);
    // Names are one per line: a q spanning two of them finds nothing.
    expect(await found('gecko.tif\nbatch')).toEqual([]);

    // An import learns its name and size once fetched, by an update of its row.
    const batchFile = (TransferSchema.parse(await (await get(`/transfers/${draft.id}`, k)).json())).files.find((f) => f.name === 'batch-0-gecko.tif')!;
    await server.services.db.update(files).set({ name: 'okapi.mov', sizeBytes: 50 }).where(eq(files.id, batchFile.id));
    expect(await found('okapi')).toEqual([draft.id]);
    expect(await found('batch-0-gecko')).toEqual([]);
    expect(await bySize()).toEqual([draft.id, other.id]);
  });

  it('pages through matches by title and by file name together, in order, with no repeat or gap', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const k = await ws.createKey(['transfers:write']);
    // Title matches (more than a page and one), file-name matches, both, and neither, interleaved in time and in size.
    const made: { id: string; match: boolean; size: number }[] = [];
    for (let i = 0; i < 12; i++) {
      const title = i === 9 ? null : i % 2 === 0 ? `${i % 4 ? 'ATLAS' : 'Atlas'} shoot ${i}` : `Memo ${i}`;
      const fileName = i % 3 === 0 ? `old atlas-${i}.tif` : `f${i}.bin`;
      server.clock.advance(1000);
      const size = ((i * 7) % 9) + 1;
      const res = await post('/transfers', { title, files: [{ name: fileName, size }] }, k);
      made.push({ id: CreateTransferResponseSchema.parse(await res.json()).id, match: /atlas/i.test(`${title} ${fileName}`), size });
    }
    async function pages(sort: string) {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await get(`/transfers?limit=2&q=atlas&sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`, k);
        expect(res.status).toBe(200);
        const page = TransferListSchema.parse(await res.json());
        ids.push(...page.transfers.map((t) => t.id));
        cursor = page.nextCursor;
      } while (cursor);
      return ids;
    }
    const matching = made.filter((t) => t.match);
    expect(await pages('created')).toEqual(matching.map((t) => t.id).reverse());
    const bySize = await pages('size');
    expect(bySize).toHaveLength(matching.length);
    expect(new Set(bySize)).toEqual(new Set(matching.map((t) => t.id)));
    const sizes = bySize.map((id) => matching.find((t) => t.id === id)!.size);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  });
});

describe('GET /transfers?sort and status=sent', () => {
  it('orders by size (largest first) or expiry (soonest first), paging without repeats, with cursors bound to their order', async () => {
    const ws = await server.createWorkspace({ plan: 'paid' });
    const k = await ws.createKey(['transfers:write']);
    const now = server.clock.now().getTime();
    const day = 86_400_000;
    const made: Record<string, string> = {};
    // Two share a size and an expiry, so ties must break by id without losing either.
    for (const [title, size, days] of [['small', 10, 30], ['big', 5000, 3], ['mid-a', 700, 10], ['mid-b', 700, 10], ['huge', 90_000, 20]] as const) {
      server.clock.advance(1000);
      const res = await post('/transfers', { title, files: [{ name: 'f', size }], expiresAt: new Date(now + days * day).toISOString() }, k);
      made[title] = ((await res.json()) as { id: string }).id;
    }
    async function all(sort: string) {
      const titles: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await get(`/transfers?limit=2&sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`, k);
        expect(res.status).toBe(200);
        const page = TransferListSchema.parse(await res.json());
        titles.push(...page.transfers.map((t) => t.title!));
        cursor = page.nextCursor;
      } while (cursor);
      return titles;
    }
    const bySize = await all('size');
    expect(bySize[0]).toBe('huge');
    expect(bySize.slice(1, 2)).toEqual(['big']);
    expect(bySize.slice(2, 4).sort()).toEqual(['mid-a', 'mid-b']);
    expect(bySize[4]).toBe('small');
    const byExpiry = await all('expiry');
    expect(byExpiry[0]).toBe('big');
    expect(byExpiry.slice(1, 3).sort()).toEqual(['mid-a', 'mid-b']);
    expect(byExpiry.slice(3)).toEqual(['huge', 'small']);

    const sizePage = TransferListSchema.parse(await (await get('/transfers?limit=1&sort=size', k)).json());
    const crossed = await get(`/transfers?limit=1&sort=expiry&cursor=${sizePage.nextCursor}`, k);
    expect(crossed.status).toBe(400);
    expect((await get('/transfers?sort=name', k)).status).toBe(400);
  });

  it('lists sent transfers apart from drafts with status=sent', async () => {
    const ws = await server.createWorkspace();
    const k = await ws.createKey(['transfers:write']);
    const draft = ((await (await post('/transfers', { title: 'draft', files: [{ name: 'f', size: 1 }] }, k)).json()) as { id: string }).id;
    const sent = ((await (await post('/transfers', { title: 'sent', files: [{ name: 'f', size: 1 }] }, k)).json()) as { id: string }).id;
    await completeFiles(sent);
    expect((await post(`/transfers/${sent}/finalize`, {}, k)).status).toBe(200);
    const ids = async (status: string) => TransferListSchema.parse(await (await get(`/transfers?status=${status}`, k)).json()).transfers.map((t) => t.id);
    expect(await ids('sent')).toEqual([sent]);
    expect(await ids('draft')).toEqual([draft]);
  });
});

describe('GET /transfers/{id}', () => {
  it('shows each file as every other answer does, whatever its state (the read builds them in SQL)', async () => {
    const draft = await createDraft({ files: [{ name: 'ok.txt', size: 5 }, { name: 'broken.bin', size: 2, path: 'in/a folder' }, { name: 'bad.exe', size: 1 }, { name: 'waiting.txt', size: 3 }] });
    const [ok, broken, bad] = draft.files;
    const { db } = server.services;
    await db.update(files).set({ state: 'complete', crc32: '0a1b2c3d', completedAt: server.clock.now(), scanResult: 'clean', scanSignature: 'ignored' }).where(eq(files.id, ok!.id));
    await db.update(files).set({ state: 'failed', error: 'the import failed' }).where(eq(files.id, broken!.id));
    await db.update(files).set({ state: 'complete', crc32: 'ffffffff', completedAt: server.clock.now(), scanResult: 'infected', scanSignature: 'Eicar-Signature' }).where(eq(files.id, bad!.id));
    const shown = await (await get(`/transfers/${draft.id}`)).json();
    const [row] = await db.select().from(transfers).where(eq(transfers.id, draft.id));
    expect(shown).toEqual(JSON.parse(JSON.stringify(await loadTransfer(db, server.services.config.PUBLIC_URL, row!))));
    expect(TransferSchema.parse(shown).files.map((f) => [f.name, f.path, f.state, f.error, f.scanResult, f.scanSignature, f.crc32])).toEqual([
      ['ok.txt', null, 'complete', null, 'clean', null, '0a1b2c3d'],
      ['broken.bin', 'in/a folder', 'failed', 'the import failed', null, null, null],
      ['bad.exe', null, 'complete', null, 'infected', 'Eicar-Signature', 'ffffffff'],
      ['waiting.txt', null, 'uploading', null, null, null, null],
    ]);
  });
});

describe('drafts, finalize and revoke', () => {
  it('adds and removes files only while the transfer is a draft', async () => {
    const draft = await createDraft();
    const added = await post(`/transfers/${draft.id}/files`, { files: [{ name: 'more.txt', size: 3 }] });
    expect(added.status).toBe(201);
    const target = ((await added.json()) as { files: { id: string }[] }).files[0]!;
    const del = await server.fetch(`/api/v1/transfers/${draft.id}/files/${target.id}`, { method: 'DELETE', token: key });
    expect(await del.json()).toEqual({ deleted: true });
    await completeFiles(draft.id);
    expect((await post(`/transfers/${draft.id}/finalize`)).status).toBe(200);
    const late = await post(`/transfers/${draft.id}/files`, { files: [{ name: 'late.txt', size: 1 }] });
    expect(late.status).toBe(409);
    expect(ErrorSchema.parse(await late.json()).error.details.reason).toBe('transfer_sent');
  });

  it.each([
    ['no body and no Content-Type', {}],
    ['an empty body with Content-Type: application/json', { headers: { 'content-type': 'application/json' }, body: '' }],
    ['a blank body with Content-Type: application/json; charset=utf-8', { headers: { 'content-type': 'application/json; charset=utf-8' }, body: ' \r\n' }],
  ])('sends with %s, since the finalize body is optional', async (_, init) => {
    const draft = await createDraft();
    await completeFiles(draft.id);
    const res = await server.fetch(`/api/v1/transfers/${draft.id}/finalize`, { method: 'POST', token: key, ...init });
    const body = await res.text();
    expect(res.status, body).toBe(200);
    expect(TransferSchema.parse(JSON.parse(body)).finalizedAt).not.toBeNull();
  });

  it('still refuses a finalize body that is not JSON', async () => {
    const draft = await createDraft();
    await completeFiles(draft.id);
    const res = await server.fetch(`/api/v1/transfers/${draft.id}/finalize`, { method: 'POST', token: key, headers: { 'content-type': 'application/json' }, body: '{' });
    expect(res.status).toBe(400);
    expect(ErrorSchema.parse(await res.json()).error.code).toBe('invalid_request');
  });

  it('refuses to send while files are still uploading, then sends once and emits transfer.ready once', async () => {
    const draft = await createDraft();
    const early = await post(`/transfers/${draft.id}/finalize`);
    expect(early.status).toBe(409);
    expect(ErrorSchema.parse(await early.json()).error.details).toMatchObject({ reason: 'uploads_incomplete', pendingFileIds: [draft.files[0]!.id] });
    await completeFiles(draft.id);
    const sent = TransferSchema.parse(await (await post(`/transfers/${draft.id}/finalize`)).json());
    expect(sent.finalizedAt).toBe(server.clock.now().toISOString());
    server.clock.advance(1000);
    const again = TransferSchema.parse(await (await post(`/transfers/${draft.id}/finalize`)).json());
    expect(again.finalizedAt).toBe(sent.finalizedAt);
    const ready = await server.services.db.select().from(events).where(eq(events.subjectId, draft.id));
    expect(ready.map((e) => e.type)).toEqual(['transfer.ready']);
    expect(ready[0]!.data).toMatchObject({ transfer: { id: draft.id, title: 'Q3 report', fileCount: 1, recipients: [] } });
  });

  it('changes expiry and download limit after sending', async () => {
    const draft = await createDraft();
    await completeFiles(draft.id);
    await post(`/transfers/${draft.id}/finalize`);
    const res = await server.fetch(`/api/v1/transfers/${draft.id}`, { method: 'PATCH', token: key, json: { maxDownloads: 3, expiresAt: '2026-03-20T00:00:00Z' } });
    expect(res.status).toBe(200);
    expect(TransferSchema.parse(await res.json())).toMatchObject({ maxDownloads: 3, expiresAt: '2026-03-20T00:00:00.000Z' });
  });

  it('takes title, message, recipients and password on a draft, and refuses them once sent', async () => {
    const draft = await createDraft({ recipients: ['old@example.test'] });
    const patch = (json: unknown) => server.fetch(`/api/v1/transfers/${draft.id}`, { method: 'PATCH', token: key, json });
    const changed = TransferSchema.parse(
      await (await patch({ title: 'Final cut', message: 'Enjoy', recipients: ['B@example.test', 'a@example.test', 'b@example.test'], password: 'open sesame' })).json(),
    );
    expect(changed).toMatchObject({ title: 'Final cut', message: 'Enjoy', recipients: ['a@example.test', 'b@example.test'], hasPassword: true });
    expect(TransferSchema.parse(await (await patch({ password: null })).json()).hasPassword).toBe(false);
    await completeFiles(draft.id);
    await post(`/transfers/${draft.id}/finalize`);
    const late = await patch({ title: 'Too late' });
    expect(late.status).toBe(409);
    expect(ErrorSchema.parse(await late.json()).error.details).toMatchObject({ reason: 'transfer_sent', fields: ['title'] });
    expect((await patch({})).status).toBe(400);
  });

  it('refuses a title or password on an end-to-end encrypted draft', async () => {
    const draft = CreateTransferResponseSchema.parse(await (await post('/transfers', { e2ee: true, files: [{ name: 'sealed', size: 10 }] })).json());
    const res = await server.fetch(`/api/v1/transfers/${draft.id}`, { method: 'PATCH', token: key, json: { title: 'visible', password: 'pass' } });
    expect(res.status).toBe(400);
    expect((ErrorSchema.parse(await res.json()).error.details.fields as { path: string }[]).map((f) => f.path)).toEqual(['title', 'password']);
  });

  it('refuses imports and plaintext folder paths added to an end-to-end encrypted draft, adding nothing', async () => {
    const draft = CreateTransferResponseSchema.parse(await (await post('/transfers', { e2ee: true, files: [{ name: 'sealed', size: 10 }] })).json());
    const res = await post(`/transfers/${draft.id}/files`, { files: [{ name: 'sealed', size: 1 }, { name: 'sealed', size: 1, path: 'Tax returns' }], imports: [{ url: 'https://example.com/a.zip' }] });
    expect(res.status).toBe(400);
    expect((ErrorSchema.parse(await res.json()).error.details.fields as { path: string }[]).map((f) => f.path)).toEqual(['files.1.path', 'imports']);
    expect(await server.services.db.select().from(files).where(eq(files.ownerId, draft.id))).toHaveLength(1);
  });

  it('refuses a plaintext message on an end-to-end encrypted draft and stores nothing of it', async () => {
    const draft = CreateTransferResponseSchema.parse(await (await post('/transfers', { e2ee: true, files: [{ name: 'sealed', size: 10 }] })).json());
    const res = await server.fetch(`/api/v1/transfers/${draft.id}`, { method: 'PATCH', token: key, json: { message: 'in the clear', maxDownloads: 2 } });
    expect(res.status).toBe(400);
    const error = ErrorSchema.parse(await res.json()).error;
    expect(error.code).toBe('invalid_request');
    expect((error.details.fields as { path: string }[]).map((f) => f.path)).toEqual(['message']);
    const [row] = await server.services.db.select().from(transfers).where(eq(transfers.id, draft.id));
    expect([row!.message, row!.maxDownloads]).toEqual([null, null]);
  });

  it('sends an end-to-end encrypted draft only with its sealed e2eeMeta and every file sealed, which nobody could open otherwise', async () => {
    const draft = CreateTransferResponseSchema.parse(await (await post('/transfers', { e2ee: true, files: [{ name: 'f1', size: 1 }, { name: 'f2', size: 1 }] })).json());
    await completeFiles(draft.id);
    const withoutMeta = await post(`/transfers/${draft.id}/finalize`, {});
    expect(withoutMeta.status).toBe(400);
    expect(ErrorSchema.parse(await withoutMeta.json()).error.details.fields).toEqual([{ path: 'e2eeMeta', message: 'required for e2ee transfers' }]);
    const seal = (fileId: string) => post(`/transfers/${draft.id}/files/${fileId}/sealed`, { meta: 'sealed-meta', thumb: '' });
    expect((await seal(draft.files[0]!.id)).status).toBe(200);
    const unsealed = await post(`/transfers/${draft.id}/finalize`, { e2eeMeta: 'sealed-transfer-meta' });
    expect(unsealed.status).toBe(409);
    expect(ErrorSchema.parse(await unsealed.json()).error.details).toEqual({ reason: 'files_unsealed', unsealedFileIds: [draft.files[1]!.id] });
    expect(TransferSchema.parse(await (await get(`/transfers/${draft.id}`)).json()).finalizedAt).toBeNull();
    expect((await seal(draft.files[1]!.id)).status).toBe(200);
    const sent = await post(`/transfers/${draft.id}/finalize`, { e2eeMeta: 'sealed-transfer-meta' });
    expect(sent.status).toBe(200);
    expect(TransferSchema.parse(await sent.json()).finalizedAt).not.toBeNull();
  });

  it('revokes: status removed, earlier events replaced by transfer.expired with reason revoked, naming the key that revoked it', async () => {
    const draft = await createDraft();
    await completeFiles(draft.id);
    await post(`/transfers/${draft.id}/finalize`);
    const revoked = TransferSchema.parse(await (await post(`/transfers/${draft.id}/revoke`)).json());
    expect(revoked.status).toBe('removed');
    const left = await server.services.db.select().from(events).where(eq(events.subjectId, draft.id));
    const revokedBy = { kind: 'key', id: expect.stringMatching(/^key_/), name: 'test key', email: null };
    expect(left.map((e) => [e.type, e.data])).toEqual([['transfer.expired', { transfer: { id: draft.id }, reason: 'revoked', revokedBy }]]);
    const patch = await server.fetch(`/api/v1/transfers/${draft.id}`, { method: 'PATCH', token: key, json: { maxDownloads: 1 } });
    expect(patch.status).toBe(409);
  });
});

describe('discarding a draft', () => {
  it('deletes an unsent draft and its files; a sent transfer is refused with 409 transfer_sent', async () => {
    const draft = await createDraft();
    const del = (id: string) => server.fetch(`/api/v1/transfers/${id}`, { method: 'DELETE', token: key });
    const res = await del(draft.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true });
    expect((await get(`/transfers/${draft.id}`)).status).toBe(404);
    expect(await server.services.db.select().from(files).where(eq(files.ownerId, draft.id))).toEqual([]);
    expect((await del(draft.id)).status).toBe(404);

    const sent = await createDraft();
    await completeFiles(sent.id);
    expect((await post(`/transfers/${sent.id}/finalize`, {})).status).toBe(200);
    const refused = await del(sent.id);
    expect(refused.status).toBe(409);
    expect(ErrorSchema.parse(await refused.json()).error.details.reason).toBe('transfer_sent');
    expect((await get(`/transfers/${sent.id}`)).status).toBe(200);
  });
});

describe('time', () => {
  it('warns once within 24 hours of expiry, then expires with reason expired', async () => {
    const draft = await createDraft({ expiresAt: new Date(server.clock.now().getTime() + 2 * 86_400_000).toISOString() });
    await completeFiles(draft.id);
    await post(`/transfers/${draft.id}/finalize`);
    const typesOf = async () => (await server.services.db.select().from(events).where(eq(events.subjectId, draft.id))).map((e) => e.type).sort();

    server.clock.advance(86_400_000 + 60_000);
    await sweepTransfers(server.services);
    await sweepTransfers(server.services);
    expect(await typesOf()).toEqual(['transfer.expiring', 'transfer.ready']);

    server.clock.advance(86_400_000);
    await sweepTransfers(server.services);
    expect(await typesOf()).toEqual(['transfer.expired']);
    const t = TransferSchema.parse(await (await get(`/transfers/${draft.id}`)).json());
    expect(t.status).toBe('expired');
  });

  it('deletes drafts never sent after 24 hours, and keeps sent ones', async () => {
    const unsent = await createDraft();
    const sentDraft = await createDraft();
    await completeFiles(sentDraft.id);
    await post(`/transfers/${sentDraft.id}/finalize`);
    server.clock.advance(24 * 3_600_000 + 1000);
    await sweepTransfers(server.services);
    expect((await get(`/transfers/${unsent.id}`)).status).toBe(404);
    expect((await get(`/transfers/${sentDraft.id}`)).status).toBe(200);
  });
});
