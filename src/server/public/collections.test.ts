// @module-tag scale-out — upload bytes land in the configured storage
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuestListSchema, InvitedGuestsSchema, type Collection } from '../../contract/collections.js';
import { ErrorSchema } from '../../contract/errors.js';
import { UnlockResponseSchema } from '../../contract/public.js';
import { COLLECTION_UNLOCK_HEADER, GuestSessionSchema, PublicCollectionFilePageSchema, PublicCollectionSchema } from '../../contract/public-collections.js';
import { DownloadLinksSchema } from '../../contract/transfers.js';
import { collectionsApi, previewsSettled, type FileToSend } from '../test/collections.js';
import { collections, guestSignIns, workspaces } from '../db/schema/index.js';
import { listOutbox, readOutboxMessage } from '../mail/file-mailer.js';
import { errorOf, startTestServer, type TestServer } from '../test/harness.js';
import { download, pathOf } from '../test/transfers.js';
import { randomFile } from '../test/uploads.js';
import { decodeQuotedPrintable } from '../test/mail.js';

/**
 * The public side of a collection through HTTP, as its page will call it: each visibility, the
 * password unlock and its limit, and a guest walked from the invite in the mail directory to a
 * downloaded file; and the workspace's guest operations under /api/v1.
 */

let server: TestServer;
beforeAll(async () => {
  // These tests make many anonymous requests from one address; the per-minute limit is tested with transfers.
  server = await startTestServer({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000' });
});
afterAll(() => server?.stop());

const FIFTEEN_MINUTES = 15 * 60 * 1000;

async function paidWorkspace() {
  const ws = await server.createWorkspace({ plan: 'paid' });
  const token = await ws.createKey(['collections:read', 'collections:write'], 'collections');
  const [row] = await server.services.db.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, ws.id));
  return { ws, token, api: collectionsApi(server, token), workspaceName: row!.name };
}

/** A request to the collection's public API, with the visitor's cookie and unlock token when given. */
function visit(slug: string, path = '', init: { method?: string; json?: unknown; cookie?: string; unlock?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.cookie) headers.cookie = init.cookie;
  if (init.unlock) headers[COLLECTION_UNLOCK_HEADER] = init.unlock;
  return server.fetch(`/api/public/collections/${slug}${path}`, { method: init.method ?? 'GET', json: init.json, headers });
}

const fieldOf = (error: { details: Record<string, unknown> }) => (error.details.fields as { path: string }[])[0]!.path;

/** The messages kept in the mail directory for this address and tag, newest first, decoded. */
async function mailsTo(workspaceId: string, to: string, tag: string): Promise<string[]> {
  const entries = (await listOutbox(server.dataDir, workspaceId, 1000)).filter((m) => m.to === to && m.tag === tag);
  return Promise.all(entries.map(async (e) => decodeQuotedPrintable((await readOutboxMessage(server.dataDir, workspaceId, e.id))!.toString('utf8'))));
}

const signInMailsTo = (workspaceId: string, to: string) => mailsTo(workspaceId, to, 'collection.guest_sign_in');

/**
 * Asks for a sign-in link as the page does (`asked` as typed, `to` as mailed) and waits for it: the
 * mail goes out after the answer, so that the answer takes as long for a guest as for anyone.
 * Returns the link's `guest` token.
 */
async function requestSignInLink(workspaceId: string, slug: string, to: string, asked = to): Promise<string> {
  const before = (await signInMailsTo(workspaceId, to)).length;
  const res = await visit(slug, '/guest-sign-in', { method: 'POST', json: { email: asked } });
  expect(res.status).toBe(202);
  expect(await res.json()).toEqual({ sent: true });
  await expect.poll(async () => (await signInMailsTo(workspaceId, to)).length).toBe(before + 1);
  const [mail] = await signInMailsTo(workspaceId, to);
  const match = new RegExp(`${server.services.config.PUBLIC_URL}/c/${slug}\\?guest=([0-9A-Za-z]+)`).exec(mail ?? '');
  if (!match) throw new Error(`no sign-in link for ${to}`);
  return match[1]!;
}

/** Asks for a sign-in link, reads it from the mail and trades it for the guest cookie (`name=value`). */
async function guestSignIn(workspaceId: string, slug: string, email: string): Promise<string> {
  const res = await visit(slug, '/guest-session', { method: 'POST', json: { token: await requestSignInLink(workspaceId, slug, email) } });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

async function invite(token: string, collectionId: string, emails: string[]) {
  const res = await server.fetch(`/api/v1/collections/${collectionId}/guests`, { method: 'POST', token, json: { emails } });
  expect(res.status, await res.clone().text()).toBe(200);
  return InvitedGuestsSchema.parse(await res.json()).invited;
}

async function guestsOf(token: string, collectionId: string) {
  const res = await server.fetch(`/api/v1/collections/${collectionId}/guests`, { token });
  expect(res.status).toBe(200);
  return GuestListSchema.parse(await res.json()).guests;
}

async function collectionWith(
  api: ReturnType<typeof collectionsApi>,
  body: Record<string, unknown>,
  toSend: FileToSend[],
): Promise<{ c: Collection; fileIds: string[] }> {
  const c = await api.create(body);
  const fileIds = toSend.length > 0 ? await api.upload(c.id, toSend) : [];
  return { c, fileIds };
}

describe('a public collection', () => {
  it('shows its text, folders and complete files to anyone with the link, and nothing of the workspace', async () => {
    const { api, ws, workspaceName } = await paidWorkspace();
    const top = randomFile(1500);
    const inDay1 = randomFile(700);
    const { c, fileIds } = await collectionWith(api, { title: 'Lookbook', description: 'Final <selects>', visibility: 'public' }, [
      { name: 'top.bin', bytes: top },
      { name: 'raw.bin', bytes: inDay1, path: 'Day 1/Raw' },
    ]);
    // Registered but never uploaded: not shown, not counted.
    expect((await api.call('POST', `/collections/${c.id}/files`, { files: [{ name: 'pending.bin', size: 10 }] })).status).toBe(201);

    const res = await visit(c.slug);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    const body = PublicCollectionSchema.strict().parse(JSON.parse(text));
    expect(body).toMatchObject({
      title: 'Lookbook',
      description: 'Final <selects>',
      workspaceName,
      visibility: 'public',
      cover: null,
      fileCount: 2,
      totalBytes: 2200,
      zip: { name: 'Lookbook.zip' },
      access: 'public',
      guestEmail: null,
    });
    expect(body.zip.sizeBytes).toBeGreaterThan(2200);
    expect(body.folders.map((f) => [f.path, f.depth])).toEqual([
      ['Day 1', 0],
      ['Day 1/Raw', 1],
    ]);
    for (const secret of [ws.id, c.id, ws.email]) expect(text).not.toContain(secret);

    const files = PublicCollectionFilePageSchema.strict().parse(await (await visit(c.slug, '/files')).json());
    expect(files.nextCursor).toBeNull();
    expect(files.files.map((f) => [f.id, f.name, f.state, f.thumbnailUrl])).toEqual([
      [fileIds[0], 'top.bin', 'complete', null],
      [fileIds[1], 'raw.bin', 'complete', null],
    ]);
    const raw = body.folders[1]!;
    const topLevel = PublicCollectionFilePageSchema.parse(await (await visit(c.slug, '/files?folderId=root')).json());
    expect(topLevel.files.map((f) => f.name)).toEqual(['top.bin']);
    const inRaw = PublicCollectionFilePageSchema.parse(await (await visit(c.slug, `/files?folderId=${raw.id}`)).json());
    expect(inRaw.files.map((f) => f.name)).toEqual(['raw.bin']);
    // Direct children only: the parent folder holds no file itself.
    const inDay = PublicCollectionFilePageSchema.parse(await (await visit(c.slug, `/files?folderId=${body.folders[0]!.id}`)).json());
    expect(inDay.files).toEqual([]);
    expect((await errorOf(await visit(c.slug, '/files?folderId=fo_unknown0000'), 404)).code).toBe('not_found');

    const links = DownloadLinksSchema.parse(await (await visit(c.slug, '/download-links')).json());
    expect(links.files.map((f) => [f.name, f.path])).toEqual([
      ['top.bin', null],
      ['raw.bin', 'Day 1/Raw'],
    ]);
    expect(links.zip).toMatchObject({ name: 'Lookbook.zip', sizeBytes: body.zip.sizeBytes });
    expect((await download(server, links.files[0]!.url)).body.equals(top)).toBe(true);
    const rawLinks = DownloadLinksSchema.parse(await (await visit(c.slug, `/download-links?folderId=${raw.id}`)).json());
    expect(rawLinks.files.map((f) => f.name)).toEqual(['raw.bin']);
    expect(rawLinks.zip.name).toBe('Raw.zip');
    expect((await errorOf(await visit(c.slug, '/download-links?folderId=fo_unknown0000'), 404)).code).toBe('not_found');
    // Nothing to unlock: a token that proves nothing keeps the page's flow the same.
    expect(UnlockResponseSchema.safeParse(await (await visit(c.slug, '/unlock', { method: 'POST', json: { password: 'any' } })).json()).success).toBe(true);
  });

  it('pages its files with cursors, checking limit and cursor', async () => {
    const { api } = await paidWorkspace();
    const { c } = await collectionWith(
      api,
      { title: 'Many', visibility: 'public' },
      Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.txt`, bytes: Buffer.from(`file ${i}`) })),
    );
    const names: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = PublicCollectionFilePageSchema.parse(
        await (await visit(c.slug, `/files?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).json(),
      );
      names.push(...page.files.map((f) => f.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(names).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt']);
    expect(pages).toBe(3);

    for (const limit of ['0', '1001', 'ten', '1.5']) expect(fieldOf(await errorOf(await visit(c.slug, `/files?limit=${limit}`), 400))).toBe('limit');
    expect(fieldOf(await errorOf(await visit(c.slug, '/files?cursor=forged'), 400))).toBe('cursor');
    expect(fieldOf(await errorOf(await visit(c.slug, `/files?folderId=${'x'.repeat(101)}`), 400))).toBe('folderId');
  });

  it('shows its cover and image previews at signed URLs', async () => {
    const { api, ws } = await paidWorkspace();
    const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 200, g: 10, b: 10 } } })
      .png()
      .toBuffer();
    const { c, fileIds } = await collectionWith(api, { title: 'Covers', visibility: 'public' }, [{ name: 'cover.png', bytes: png, mimeType: 'image/png' }]);
    expect((await api.call('PATCH', `/collections/${c.id}`, { coverFileId: fileIds[0] })).status).toBe(200);
    await previewsSettled(server, c.id);

    const body = PublicCollectionSchema.parse(await (await visit(c.slug)).json());
    expect(body.cover?.fileId).toBe(fileIds[0]);
    const preview = await server.fetch(pathOf(body.cover!.thumbnailUrl!));
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/webp');
    const files = PublicCollectionFilePageSchema.parse(await (await visit(c.slug, '/files')).json());
    expect(files.files[0]!.thumbnailUrl).toMatch(/\/thumb\//);

    // Not while the operator has disabled the workspace.
    await server.services.db.update(workspaces).set({ disabledAt: server.clock.now() }).where(eq(workspaces.id, ws.id));
    try {
      expect((await errorOf(await server.fetch(pathOf(body.cover!.thumbnailUrl!)), 410)).details.reason).toBe('suspended');
    } finally {
      await server.services.db.update(workspaces).set({ disabledAt: null }).where(eq(workspaces.id, ws.id));
    }
  });

  it('answers 404 for an unknown or malformed slug, and 410 suspended while the operator has disabled the workspace', async () => {
    for (const slug of ['NoSuchSlug0000000000000', 'a.b', '%00']) expect((await errorOf(await visit(slug), 404)).code).toBe('not_found');
    const { api, ws } = await paidWorkspace();
    const { c } = await collectionWith(api, { title: 'Suspended', visibility: 'public' }, []);
    await server.services.db.update(workspaces).set({ disabledAt: server.clock.now() }).where(eq(workspaces.id, ws.id));
    try {
      const error = await errorOf(await visit(c.slug), 410);
      expect(error).toMatchObject({ code: 'link_unavailable', details: { reason: 'suspended' } });
      expect((await errorOf(await visit(c.slug, '/files'), 410)).details.reason).toBe('suspended');
    } finally {
      await server.services.db.update(workspaces).set({ disabledAt: null }).where(eq(workspaces.id, ws.id));
    }
  });

  it('answers 410 deleted for every path of a deleted collection, with nothing of it', async () => {
    const { api } = await paidWorkspace();
    const { c } = await collectionWith(api, { title: 'Gone soon', visibility: 'public' }, [{ name: 'a.txt', bytes: Buffer.from('hello') }]);
    expect((await visit(c.slug)).status).toBe(200);
    expect((await api.call('DELETE', `/collections/${c.id}`)).status).toBe(200);
    for (const path of ['', '/files']) {
      const res = await visit(c.slug, path);
      const body = await res.text();
      expect(res.status).toBe(410);
      expect(JSON.parse(body)).toMatchObject({ error: { code: 'link_unavailable', details: { reason: 'deleted' } } });
      expect(body).not.toContain('Gone soon');
    }
  });

  it('stays readable, read-only, after the workspace’s paid plan lapses', async () => {
    const { api, ws, token } = await paidWorkspace();
    const bytes = randomFile(300);
    const { c } = await collectionWith(api, { title: 'Lapsed', visibility: 'public' }, [{ name: 'kept.bin', bytes }]);
    await server.setPlan(ws.id, 'free');
    expect((await server.fetch(`/api/v1/collections/${c.id}/guests`, { token })).status).toBe(402);
    expect(PublicCollectionSchema.parse(await (await visit(c.slug)).json()).fileCount).toBe(1);
    const links = DownloadLinksSchema.parse(await (await visit(c.slug, '/download-links')).json());
    expect((await download(server, links.files[0]!.url)).body.equals(bytes)).toBe(true);
  });
});

describe('a password-protected collection', () => {
  it('withholds everything until unlocked; a wrong password is 401, and a new password retires old tokens and links', async () => {
    const { api } = await paidWorkspace();
    const bytes = randomFile(900);
    const { c } = await collectionWith(api, { title: 'Secret plans', visibility: 'password', password: 'open sesame' }, [{ name: 'plan.bin', bytes }]);

    const locked = await errorOf(await visit(c.slug), 401);
    expect(locked.code).toBe('password_required');
    expect(JSON.stringify(locked)).not.toContain('Secret plans');
    expect((await errorOf(await visit(c.slug, '/files'), 401)).code).toBe('password_required');
    expect((await errorOf(await visit(c.slug, '/download-links'), 401)).code).toBe('password_required');

    expect((await errorOf(await visit(c.slug, '/unlock', { method: 'POST', json: { password: 'open barley' } }), 401)).code).toBe('wrong_password');
    expect(fieldOf(await errorOf(await visit(c.slug, '/unlock', { method: 'POST', json: { password: '' } }), 400))).toBe('password');
    const right = await visit(c.slug, '/unlock', { method: 'POST', json: { password: 'open sesame' } });
    expect(right.status).toBe(200);
    const { unlockToken } = UnlockResponseSchema.parse(await right.json());

    const body = PublicCollectionSchema.parse(await (await visit(c.slug, '', { unlock: unlockToken })).json());
    expect(body).toMatchObject({ title: 'Secret plans', visibility: 'password', access: 'password', fileCount: 1 });
    const links = DownloadLinksSchema.parse(await (await visit(c.slug, '/download-links', { unlock: unlockToken })).json());
    expect((await download(server, links.files[0]!.url)).body.equals(bytes)).toBe(true);

    // Another collection's token opens nothing here, and this one's opens nothing there.
    const other = await collectionWith(api, { title: 'Other', visibility: 'password', password: 'open sesame' }, []);
    expect((await visit(other.c.slug, '', { unlock: unlockToken })).status).toBe(401);

    expect((await api.call('PATCH', `/collections/${c.id}`, { password: 'new words' })).status).toBe(200);
    expect((await errorOf(await visit(c.slug, '', { unlock: unlockToken }), 401)).code).toBe('password_required');
    expect((await download(server, links.files[0]!.url)).res.status).toBe(410);
    const fresh = UnlockResponseSchema.parse(await (await visit(c.slug, '/unlock', { method: 'POST', json: { password: 'new words' } })).json());
    expect((await visit(c.slug, '', { unlock: fresh.unlockToken })).status).toBe(200);

    // Made public, the collection needs nothing; made private, the token opens nothing.
    expect((await api.call('PATCH', `/collections/${c.id}`, { visibility: 'private' })).status).toBe(200);
    expect((await errorOf(await visit(c.slug, '', { unlock: fresh.unlockToken }), 403)).code).toBe('guests_only');
  });

  it('refuses the 11th failed attempt from one address within 15 minutes with 429, even with the right password', async () => {
    const { api } = await paidWorkspace();
    const { c } = await collectionWith(api, { title: 'Guarded', visibility: 'password', password: 'right one' }, []);
    const unlock = (password: string) => visit(c.slug, '/unlock', { method: 'POST', json: { password } });
    for (let i = 0; i < 10; i++) expect((await unlock(`wrong ${i}`)).status).toBe(401);
    const limited = await unlock('right one');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(ErrorSchema.parse(await limited.json()).error.code).toBe('rate_limited');
    server.clock.advance(FIFTEEN_MINUTES);
    expect((await unlock('right one')).status).toBe(200);
  });
});

describe('a private collection', () => {
  it('is only for invited guests: anyone else gets 403 guests_only and nothing of it', async () => {
    const { api } = await paidWorkspace();
    const { c } = await collectionWith(api, { title: 'Private matters' }, [{ name: 'a.txt', bytes: Buffer.from('a') }]);
    for (const path of ['', '/files', '/download-links']) {
      const error = await errorOf(await visit(c.slug, path), 403);
      expect(error.code).toBe('guests_only');
      expect(JSON.stringify(error)).not.toContain('Private matters');
    }
    expect((await errorOf(await visit(c.slug, '/unlock', { method: 'POST', json: { password: 'anything' } }), 403)).code).toBe('guests_only');
  });

  it('walks a guest from the invite mail to a downloaded file, and ends their access when they are removed', async () => {
    const { api, ws, token, workspaceName } = await paidWorkspace();
    const bytes = randomFile(5000);
    const { c } = await collectionWith(api, { title: 'Shoot <1>' }, [{ name: 'photo.bin', bytes, path: 'Day 1' }]);
    const guest = 'guest@example.test';
    expect(await invite(token, c.id, ['Guest@Example.TEST'])).toEqual([guest]);

    const [invitation] = await mailsTo(ws.id, guest, 'collection.guest_invited');
    expect(invitation).toContain(workspaceName);
    expect(invitation).toContain('Shoot <1>');
    // The title in the HTML part is escaped.
    expect(invitation).toContain('Shoot &lt;1&gt;');
    expect(invitation).toContain(`${server.services.config.PUBLIC_URL}/c/${c.slug}`);
    expect(invitation).not.toMatch(/\?guest=/);
    expect(invitation).toContain(`sign in with this address (${guest})`);

    // The page asks for a sign-in link (any case of the address), which arrives by mail.
    const signInLink = await requestSignInLink(ws.id, c.slug, guest, ' GUEST@example.test ');

    const session = await visit(c.slug, '/guest-session', { method: 'POST', json: { token: signInLink } });
    expect(session.status).toBe(200);
    const signedIn = GuestSessionSchema.strict().parse(await session.json());
    expect(signedIn).toEqual({ email: guest, expiresAt: new Date(server.clock.now().getTime() + 30 * 24 * 3600 * 1000).toISOString() });
    const setCookie = session.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^collection_guest=[^;]+;/);
    expect(setCookie).toContain(`Path=/api/public/collections/${c.slug}`);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain(`Max-Age=${30 * 24 * 3600}`);
    // PUBLIC_URL is http here.
    expect(setCookie).not.toContain('Secure');
    const cookie = setCookie.split(';')[0]!;

    // Single use: the same link again is gone.
    const reused = await errorOf(await visit(c.slug, '/guest-session', { method: 'POST', json: { token: signInLink } }), 410);
    expect(reused).toMatchObject({ code: 'link_unavailable', details: { reason: 'expired' } });

    const page = PublicCollectionSchema.parse(await (await visit(c.slug, '', { cookie })).json());
    expect(page).toMatchObject({ title: 'Shoot <1>', visibility: 'private', access: 'guest', guestEmail: guest, fileCount: 1 });
    const [listed] = await guestsOf(token, c.id);
    expect(listed).toMatchObject({ email: guest, lastVisitAt: server.clock.now().toISOString() });

    const links = DownloadLinksSchema.parse(await (await visit(c.slug, '/download-links', { cookie })).json());
    const { res, body } = await download(server, links.files[0]!.url);
    expect(res.status).toBe(200);
    expect(body.equals(bytes)).toBe(true);
    const zip = await download(server, links.zip.url);
    expect(zip.res.status).toBe(200);
    expect(zip.body.length).toBe(links.zip.sizeBytes);

    // Removed: the next request is refused, and so are the links made for them.
    const removed = await server.fetch(`/api/v1/collections/${c.id}/guests/${listed!.id}`, { method: 'DELETE', token });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ deleted: true });
    expect((await errorOf(await visit(c.slug, '', { cookie }), 403)).code).toBe('guests_only');
    expect((await errorOf(await visit(c.slug, '/download-links', { cookie }), 403)).code).toBe('guests_only');
    const revoked = await download(server, links.files[0]!.url);
    expect(revoked.res.status).toBe(410);
    expect((await guestsOf(token, c.id)).length).toBe(0);
    expect(await server.services.db.select().from(guestSignIns)).not.toContainEqual(expect.objectContaining({ guestId: listed!.id }));
  });

  it('stops a guest\'s session, and the signed links it was given, while the operator has disabled the workspace', async () => {
    const { api, ws, token } = await paidWorkspace();
    const bytes = randomFile(500);
    const { c } = await collectionWith(api, { title: 'Paused' }, [{ name: 'photo.bin', bytes }]);
    await invite(token, c.id, ['held@example.test']);
    const cookie = await guestSignIn(ws.id, c.slug, 'held@example.test');
    const links = DownloadLinksSchema.parse(await (await visit(c.slug, '/download-links', { cookie })).json());

    await server.services.db.update(workspaces).set({ disabledAt: server.clock.now() }).where(eq(workspaces.id, ws.id));
    try {
      for (const path of ['', '/files', '/download-links']) expect((await errorOf(await visit(c.slug, path, { cookie }), 410)).details.reason).toBe('suspended');
      for (const url of [links.files[0]!.url, links.zip.url]) expect((await download(server, url)).res.status).toBe(410);
    } finally {
      await server.services.db.update(workspaces).set({ disabledAt: null }).where(eq(workspaces.id, ws.id));
    }
    expect((await download(server, links.files[0]!.url)).body.equals(bytes)).toBe(true);
  });

  it('keeps a guest signed in whatever the visibility, and signs them out on request', async () => {
    const { api, ws, token } = await paidWorkspace();
    const { c } = await collectionWith(api, { title: 'Changing' }, []);
    await invite(token, c.id, ['stay@example.test']);
    const cookie = await guestSignIn(ws.id, c.slug, 'stay@example.test');
    expect((await api.call('PATCH', `/collections/${c.id}`, { visibility: 'password', password: 'something' })).status).toBe(200);
    expect(PublicCollectionSchema.parse(await (await visit(c.slug, '', { cookie })).json()).access).toBe('guest');

    const out = await visit(c.slug, '/guest-session', { method: 'DELETE', cookie });
    expect(out.status).toBe(204);
    const cleared = out.headers.get('set-cookie')!;
    expect(cleared).toMatch(/^collection_guest=;/);
    expect(cleared).toContain('Max-Age=0');
    expect(cleared).toContain(`Path=/api/public/collections/${c.slug}`);
  });

  it('lets a sign-in link work for 15 minutes only', async () => {
    const { api, ws, token } = await paidWorkspace();
    const { c } = await collectionWith(api, { title: 'Timed' }, []);
    await invite(token, c.id, ['late@example.test']);
    const link = await requestSignInLink(ws.id, c.slug, 'late@example.test');
    server.clock.advance(FIFTEEN_MINUTES);
    const error = await errorOf(await visit(c.slug, '/guest-session', { method: 'POST', json: { token: link } }), 410);
    expect(error).toMatchObject({ code: 'link_unavailable', details: { reason: 'expired' } });
    expect(error.message).toMatch(/new one/);
    expect(fieldOf(await errorOf(await visit(c.slug, '/guest-session', { method: 'POST', json: {} }), 400))).toBe('token');
  });

  it('gives a guest of one collection nothing of another, even one they are also invited to', async () => {
    const { api, ws, token } = await paidWorkspace();
    const a = (await collectionWith(api, { title: 'A' }, [])).c;
    const b = (await collectionWith(api, { title: 'B' }, [])).c;
    await invite(token, a.id, ['both@example.test']);
    const cookieA = await guestSignIn(ws.id, a.slug, 'both@example.test');
    expect((await visit(a.slug, '', { cookie: cookieA })).status).toBe(200);
    expect((await errorOf(await visit(b.slug, '', { cookie: cookieA }), 403)).code).toBe('guests_only');
    await invite(token, b.id, ['both@example.test']);
    expect((await errorOf(await visit(b.slug, '', { cookie: cookieA }), 403)).code).toBe('guests_only');
    // A link mailed for A does not sign in to B either.
    const linkForA = await requestSignInLink(ws.id, a.slug, 'both@example.test');
    expect((await visit(b.slug, '/guest-session', { method: 'POST', json: { token: linkForA } })).status).toBe(410);
  });

  it('answers a sign-in request the same for an address that is not a guest, sends it nothing, and limits mails per address', async () => {
    const { api, ws, token } = await paidWorkspace();
    const { c } = await collectionWith(api, { title: 'Quiet' }, []);
    await invite(token, c.id, ['known@example.test']);
    const before = (await listOutbox(server.dataDir, ws.id, 1000)).length;

    const unknown = await visit(c.slug, '/guest-sign-in', { method: 'POST', json: { email: 'stranger@example.test' } });
    expect(unknown.status).toBe(202);
    expect(await unknown.json()).toEqual({ sent: true });
    // A guest's request made after it is mailed; by then the stranger's would have been too, had it been.
    await requestSignInLink(ws.id, c.slug, 'known@example.test');
    expect((await listOutbox(server.dataDir, ws.id, 1000)).length).toBe(before + 1);
    expect(fieldOf(await errorOf(await visit(c.slug, '/guest-sign-in', { method: 'POST', json: { email: 'not an address' } }), 400))).toBe('email');

    for (let i = 0; i < 6; i++) expect((await visit(c.slug, '/guest-sign-in', { method: 'POST', json: { email: 'known@example.test' } })).status).toBe(202);
    await expect.poll(async () => (await signInMailsTo(ws.id, 'known@example.test')).length).toBe(5);
    server.clock.advance(FIFTEEN_MINUTES);
    await requestSignInLink(ws.id, c.slug, 'known@example.test');
    expect(await signInMailsTo(ws.id, 'known@example.test')).toHaveLength(6);
  });
});

describe('the guests of a collection in /api/v1', () => {
  it('invites lower-cased and deduplicated addresses in order, lists them, and mails an address invited again', async () => {
    const { api, ws, token } = await paidWorkspace();
    const { c } = await collectionWith(api, { title: 'Guests' }, []);
    expect(await invite(token, c.id, [' A@x.io', 'a@X.io', 'b@x.io'])).toEqual(['a@x.io', 'b@x.io']);
    const first = await guestsOf(token, c.id);
    expect(first).toEqual([
      { id: expect.stringMatching(/^gu_/), email: 'a@x.io', role: 'viewer', uploadFolderId: null, invitedAt: server.clock.now().toISOString(), lastVisitAt: null, language: null },
      { id: expect.stringMatching(/^gu_/), email: 'b@x.io', role: 'viewer', uploadFolderId: null, invitedAt: server.clock.now().toISOString(), lastVisitAt: null, language: null },
    ]);
    expect(await mailsTo(ws.id, 'a@x.io', 'collection.guest_invited')).toHaveLength(1);

    server.clock.advance(60_000);
    expect(await invite(token, c.id, ['c@x.io', 'a@x.io'])).toEqual(['c@x.io', 'a@x.io']);
    const second = await guestsOf(token, c.id);
    expect(second.map((g) => g.email)).toEqual(['a@x.io', 'b@x.io', 'c@x.io']);
    // The address invited again keeps its row and its first invitation, and gets the mail again.
    expect(second[0]).toEqual(first[0]);
    expect(await mailsTo(ws.id, 'a@x.io', 'collection.guest_invited')).toHaveLength(2);
    // Inviting changes who may visit, not the collection.
    const [row] = await server.services.db.select({ updatedAt: collections.updatedAt }).from(collections).where(eq(collections.id, c.id));
    expect(row!.updatedAt.toISOString()).toBe(c.updatedAt);
  });

  it('refuses bad input naming the field', async () => {
    const { api, token } = await paidWorkspace();
    const { c } = await collectionWith(api, { title: 'Checks' }, []);
    const post = (json: unknown) => server.fetch(`/api/v1/collections/${c.id}/guests`, { method: 'POST', token, json });
    const tooMany = Array.from({ length: 26 }, (_, i) => `g${i}@x.io`);
    expect(fieldOf(await errorOf(await post({ emails: tooMany }), 400))).toBe('emails');
    expect(fieldOf(await errorOf(await post({ emails: [] }), 400))).toBe('emails');
    expect(fieldOf(await errorOf(await post({ emails: ['ok@x.io', 'not an address'] }), 400))).toBe('emails.1');
    expect(fieldOf(await errorOf(await post({}), 400))).toBe('emails');
    expect(await guestsOf(token, c.id)).toEqual([]);
  });

  it('answers 404 for another workspace’s collection and for a guest of another collection', async () => {
    const mine = await paidWorkspace();
    const theirs = await paidWorkspace();
    const { c } = await collectionWith(mine.api, { title: 'Mine' }, []);
    const sibling = (await collectionWith(mine.api, { title: 'Sibling' }, [])).c;
    await invite(mine.token, c.id, ['x@x.io']);
    const [guest] = await guestsOf(mine.token, c.id);

    const as = (token: string, method: string, path: string, json?: unknown) => server.fetch(`/api/v1${path}`, { method, token, json });
    expect((await errorOf(await as(theirs.token, 'GET', `/collections/${c.id}/guests`), 404)).code).toBe('not_found');
    expect((await errorOf(await as(theirs.token, 'POST', `/collections/${c.id}/guests`, { emails: ['y@x.io'] }), 404)).code).toBe('not_found');
    expect((await errorOf(await as(theirs.token, 'DELETE', `/collections/${c.id}/guests/${guest!.id}`), 404)).code).toBe('not_found');
    expect((await errorOf(await as(mine.token, 'DELETE', `/collections/${sibling.id}/guests/${guest!.id}`), 404)).code).toBe('not_found');
    expect((await errorOf(await as(mine.token, 'DELETE', `/collections/${c.id}/guests/gu_unknown00000000`), 404)).code).toBe('not_found');
    expect(await guestsOf(mine.token, c.id)).toHaveLength(1);
  });

  it('needs a paid plan for every guest operation', async () => {
    const { api, ws, token } = await paidWorkspace();
    const { c } = await collectionWith(api, { title: 'Plan' }, []);
    await invite(token, c.id, ['p@x.io']);
    const [guest] = await guestsOf(token, c.id);
    await server.setPlan(ws.id, 'free');
    for (const [method, path, json] of [
      ['GET', `/collections/${c.id}/guests`, undefined],
      ['POST', `/collections/${c.id}/guests`, { emails: ['q@x.io'] }],
      ['DELETE', `/collections/${c.id}/guests/${guest!.id}`, undefined],
    ] as const) {
      expect((await errorOf(await server.fetch(`/api/v1${path}`, { method, token, json }), 402)).code).toBe('upgrade_required');
    }
    await server.setPlan(ws.id, 'paid');
    expect(await guestsOf(token, c.id)).toHaveLength(1);
  });
});
