// @module-tag scale-out — upload bytes land in the configured storage
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadSessionSchema, PublicTransferSchema, UnlockResponseSchema } from '../../contract/public.js';
import { hashPassword } from '../auth/passwords.js';
import { downloadSessions, transfers, workspaces } from '../db/schema/index.js';
import { download, seedTransfer, startSession } from '../test/transfers.js';
import { errorOf, startTestServer, type TestServer } from '../test/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

const page = (slug: string, headers: Record<string, string> = {}) => server.fetch(`/api/public/transfers/${slug}`, { headers });
const unlock = (slug: string, password: unknown, headers: Record<string, string> = {}) =>
  server.fetch(`/api/public/transfers/${slug}/unlock`, { method: 'POST', json: { password }, headers });

describe('GET /api/public/transfers/:slug', () => {
  it('shows a sent transfer to anyone with the link, without owner details', async () => {
    const data = randomBytes(1234);
    const t = await seedTransfer(server, {
      title: 'Holiday',
      message: 'Enjoy!',
      files: [
        { name: 'a.jpg', path: 'day 1', data, mimeType: 'image/jpeg' },
        { name: 'b.txt', data: Buffer.from('b') },
        { name: 'still-uploading.bin', data: randomBytes(10), state: 'uploading' },
      ],
    });
    const [ws] = await server.services.db.select().from(workspaces).where(eq(workspaces.id, t.workspaceId));
    const res = await page(t.transfer.slug);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('ratelimit-policy')).toContain('anonymous-minute');
    const body = PublicTransferSchema.strict().parse(await res.json());
    expect(body).toMatchObject({
      title: 'Holiday',
      message: 'Enjoy!',
      workspaceName: ws!.name,
      expiresAt: t.transfer.expiresAt.toISOString(),
      hasPassword: false,
      e2ee: false,
      transferId: null,
      e2eeMeta: null,
      totalBytes: 1235,
      zip: { name: 'Holiday.zip' },
    });
    expect(body.files).toEqual([
      { id: t.files[0]!.id, name: 'a.jpg', path: 'day 1', sizeBytes: 1234, mimeType: 'image/jpeg', crc32: t.files[0]!.crc32, sealedMeta: null, sealedThumb: null, thumbnailUrl: null, scanPending: false },
      { id: t.files[1]!.id, name: 'b.txt', path: null, sizeBytes: 1, mimeType: 'application/octet-stream', crc32: t.files[1]!.crc32, sealedMeta: null, sealedThumb: null, thumbnailUrl: null, scanPending: false },
    ]);
    const text = JSON.stringify(body);
    for (const secret of [t.transfer.id, t.workspaceId, t.transfer.slug]) expect(text).not.toContain(secret);

    // The advertised zip size is the size actually served.
    const session = await startSession(server, t.transfer.slug);
    expect(DownloadSessionSchema.parse(session)).toEqual(session);
    expect(session.files.map((f) => f.id)).toEqual(body.files.map((f) => f.id));
    const zip = await download(server, session.zip!.url);
    expect(zip.body.length).toBe(body.zip!.sizeBytes);
  });

  it('404s an unknown slug, a prefix of a real one, and a draft', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'a', data: Buffer.from('a') }] });
    const draft = await seedTransfer(server, { finalized: false, files: [{ name: 'a', data: Buffer.from('a') }] });
    for (const slug of ['nope', t.transfer.slug.slice(0, -1), `${t.transfer.slug}x`, t.transfer.slug.toLowerCase() === t.transfer.slug ? 'X' : t.transfer.slug.toLowerCase(), draft.transfer.slug, '%2e%2e']) {
      const res = await page(slug);
      expect(res.status, slug).toBe(404);
      expect((await errorOf(res)).code).toBe('not_found');
    }
    expect((await server.fetch(`/api/public/transfers/${draft.transfer.slug}/sessions`, { method: 'POST', json: {} })).status).toBe(404);
    expect((await server.fetch('/api/public/nothing-here')).status).toBe(404);
  });

  it('410s an expired, revoked or infected transfer with the reason', async () => {
    const expiring = await seedTransfer(server, { files: [{ name: 'a', data: Buffer.from('a') }], expiresInMs: 60_000 });
    const revoked = await seedTransfer(server, { status: 'removed', files: [{ name: 'a', data: Buffer.from('a') }] });
    const expired = await seedTransfer(server, { status: 'expired', files: [{ name: 'a', data: Buffer.from('a') }] });
    const infected = await seedTransfer(server, { status: 'infected', files: [{ name: 'a', data: Buffer.from('a') }] });

    for (const [t, reason] of [[revoked, 'revoked'], [expired, 'expired'], [infected, 'infected']] as const) {
      const res = await page(t.transfer.slug);
      expect(res.status).toBe(410);
      expect(await errorOf(res)).toMatchObject({ code: 'link_unavailable', details: { reason } });
    }

    expect((await page(expiring.transfer.slug)).status).toBe(200);
    const session = await startSession(server, expiring.transfer.slug);
    const before = server.clock.now();
    try {
      server.clock.advance(60_001);
      const res = await page(expiring.transfer.slug);
      expect(res.status).toBe(410);
      expect(await errorOf(res)).toMatchObject({ code: 'link_unavailable', details: { reason: 'expired' } });
      const dl = await download(server, session.files[0]!.url);
      expect(dl.res.status).toBe(410);
      expect((await server.fetch(`/api/public/transfers/${expiring.transfer.slug}/sessions`, { method: 'POST', json: {} })).status).toBe(410);
    } finally {
      server.clock.set(before);
    }
  });

  it('shows an end-to-end encrypted transfer with its sealed metadata and no zip', async () => {
    const sealed = randomBytes(64);
    const t = await seedTransfer(server, { e2ee: true, files: [{ name: 'sealed-0', data: sealed }] });
    await server.services.db.update(transfers).set({ e2eeMeta: 'META' }).where(eq(transfers.id, t.transfer.id));
    const body = PublicTransferSchema.parse(await (await page(t.transfer.slug)).json());
    expect(body).toMatchObject({ e2ee: true, transferId: t.transfer.id, e2eeMeta: 'META', zip: null });
    const session = await startSession(server, t.transfer.slug);
    expect(session.zip).toBeNull();
    expect((await download(server, session.files[0]!.url)).body.equals(sealed)).toBe(true);
  });
});

describe('passwords', () => {
  it('withholds the transfer until unlocked; wrong → 403, right → a token the other endpoints accept', async () => {
    const t = await seedTransfer(server, { password: 'open sesame', files: [{ name: 'secret.txt', data: Buffer.from('s3cret') }] });
    const locked = await page(t.transfer.slug);
    expect(locked.status).toBe(401);
    const lockedError = await errorOf(locked);
    expect(lockedError).toMatchObject({ code: 'password_required', details: {} });
    expect(JSON.stringify(lockedError)).not.toContain('secret.txt');

    const wrong = await unlock(t.transfer.slug, 'open barley');
    expect(wrong.status).toBe(401);
    expect((await errorOf(wrong)).code).toBe('wrong_password');
    expect((await unlock(t.transfer.slug, '')).status).toBe(400);

    const right = await unlock(t.transfer.slug, 'open sesame');
    expect(right.status).toBe(200);
    const { unlockToken } = UnlockResponseSchema.parse(await right.json());

    const open = await page(t.transfer.slug, { 'x-transfer-unlock': unlockToken });
    expect(open.status).toBe(200);
    expect(((await open.json()) as { hasPassword: boolean }).hasPassword).toBe(true);

    const noToken = await server.fetch(`/api/public/transfers/${t.transfer.slug}/sessions`, { method: 'POST', json: {} });
    expect(noToken.status).toBe(401);
    expect((await errorOf(noToken)).code).toBe('password_required');
    const session = await startSession(server, t.transfer.slug, { unlockToken });
    expect((await download(server, session.files[0]!.url)).body.toString()).toBe('s3cret');

    // A token is bound to its transfer and its password, and expires.
    const other = await seedTransfer(server, { password: 'open sesame', files: [{ name: 'x', data: Buffer.from('x') }] });
    expect((await page(other.transfer.slug, { 'x-transfer-unlock': unlockToken })).status).toBe(401);
    await server.services.db.update(transfers).set({ passwordHash: await hashPassword('new one') }).where(eq(transfers.id, t.transfer.id));
    expect((await page(t.transfer.slug, { 'x-transfer-unlock': unlockToken })).status).toBe(401);
    const fresh = UnlockResponseSchema.parse(await (await unlock(t.transfer.slug, 'new one')).json());
    const before = server.clock.now();
    try {
      server.clock.advance(3600_000 + 1);
      expect((await page(t.transfer.slug, { 'x-transfer-unlock': fresh.unlockToken })).status).toBe(401);
    } finally {
      server.clock.set(before);
    }
  });

  it('limits failed attempts per link and address', async () => {
    const t = await seedTransfer(server, { password: 'right', files: [{ name: 'x', data: Buffer.from('x') }] });
    // Each request also counts against the per-address minute limit: use a fresh minute.
    server.clock.advance(60_000);
    for (let i = 0; i < 10; i++) expect((await unlock(t.transfer.slug, `wrong ${i}`)).status).toBe(401);
    const limited = await unlock(t.transfer.slug, 'right');
    expect(limited.status).toBe(429);
    expect((await errorOf(limited)).code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    server.clock.advance(15 * 60_000);
    expect((await unlock(t.transfer.slug, 'right')).status).toBe(200);
  });
});

describe('sessions and the public rate limit', () => {
  it('creates one visit per call, expiring with the session (12 hours) and never after the transfer', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'a', data: Buffer.from('a') }] });
    const s = await startSession(server, t.transfer.slug);
    expect(new Date(s.expiresAt).getTime()).toBe(server.clock.now().getTime() + 12 * 3600_000);
    const [row] = await server.services.db.select().from(downloadSessions).where(eq(downloadSessions.id, s.sessionId));
    expect(row).toMatchObject({ transferId: t.transfer.id, recipientId: null, countedAt: null });
    expect((await server.fetch(`/api/public/transfers/${t.transfer.slug}/sessions`, { method: 'POST', body: '{bad' , headers: { 'content-type': 'application/json' } })).status).toBe(400);
    // An empty body is a visit without a recipient token.
    expect((await server.fetch(`/api/public/transfers/${t.transfer.slug}/sessions`, { method: 'POST' })).status).toBe(201);
  });

  it('refuses a 61st request in a minute from one address with 429 and Retry-After', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'a', data: Buffer.from('a') }] });
    server.clock.advance(60_000);
    const start = server.clock.now().getTime();
    server.clock.set(Math.floor(start / 60_000) * 60_000 + 1000);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await page(t.transfer.slug)).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    const res = await page(t.transfer.slug);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('59');
    expect(statuses[60]).toBe(429);
  });
});
