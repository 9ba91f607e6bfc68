import { randomBytes } from 'node:crypto';
import { crc32 } from '@node-rs/crc32';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Collection } from '../../../../contract/collections.js';
import { ResolvedLinkSchema, type ResolvedLink } from '../../../../contract/links.js';
import { collectionsApi } from '../../../test/collections.js';
import { downloads, events } from '../../../db/schema/index.js';
import { errorOf, startTestServer, type TestServer } from '../../../test/harness.js';
import { download, reloadTransfer, seedTransfer } from '../../../test/transfers.js';
import { UNLOCK_FAILURES_ALLOWED } from '../../../sharing/unlock.js';
import { setCustomDomain } from '../../../workspaces/custom-domain.js';

/**
 * `POST /api/v1/links/resolve` through HTTP: links of one workspace resolved with another
 * workspace's key (free plan, a scope that has nothing to do with links), and downloads through the
 * answer counting as visits of the link.
 */

let server: TestServer;
let publicUrl: string;
/** Every outbound lookup or connection the server tried; resolving must never make one. */
const outbound: string[] = [];
/** The resolver: a second, free workspace whose key has one unrelated scope. */
let token: string;
let otherToken: string;
/** The owner of the shared collections (collections need a paid plan). */
let owner: { id: string; api: ReturnType<typeof collectionsApi> };

beforeAll(async () => {
  server = await startTestServer(
    {},
    {
      outbound: {
        lookup: async (hostname) => {
          outbound.push(`lookup ${hostname}`);
          throw Object.assign(new Error('test: no outbound network'), { code: 'ENOTFOUND' });
        },
        connect: async (address) => {
          outbound.push(`connect ${String(address)}`);
          throw Object.assign(new Error('test: no outbound network'), { code: 'ECONNREFUSED' });
        },
      },
    },
  );
  publicUrl = server.services.config.PUBLIC_URL;
  const resolver = await server.createWorkspace({ plan: 'free' });
  token = await resolver.createKey(['webhooks:read'], 'resolver');
  otherToken = await resolver.createKey(['contacts:read'], 'another key');
  const ownerWs = await server.createWorkspace({ plan: 'paid' });
  owner = { id: ownerWs.id, api: collectionsApi(server, await ownerWs.createKey(['collections:write'], 'owner')) };
}, 60_000);
afterAll(() => server?.stop());

const resolve = (body: unknown, key = token) => server.fetch('/api/v1/links/resolve', { method: 'POST', token: key, json: body });

async function resolved(body: unknown, key = token): Promise<ResolvedLink> {
  const res = await resolve(body, key);
  if (res.status !== 200) throw new Error(`resolve: ${res.status} ${await res.text()}`);
  return ResolvedLinkSchema.parse(await res.json());
}

const crcHex = (data: Buffer) => (crc32(data) >>> 0).toString(16).padStart(8, '0');
const transferLink = (slug: string) => `${publicUrl}/t/${slug}`;
const receiptsOf = (transferId: string) =>
  server.services.db.select().from(downloads).where(eq(downloads.transferId, transferId)).orderBy(asc(downloads.createdAt), asc(downloads.id));

/** A STORE zip holds each file's bytes as they are, between a local header and the central directory. */
function expectZipOf(zip: Buffer, sizeBytes: number, contents: Buffer[]) {
  expect(zip.length).toBe(sizeBytes);
  expect(zip.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(true);
  expect(zip.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06]))).toBe(true);
  for (const data of contents) expect(zip.includes(data)).toBe(true);
}

describe('resolving a transfer link', () => {
  it("answers signed links from another workspace's key: the bytes match their crc32, the zip works, and a download counts as a visit", async () => {
    const a = randomBytes(40_000);
    const b = randomBytes(3_000);
    const t = await seedTransfer(server, {
      title: 'Plans',
      files: [
        { name: 'plan.pdf', data: a },
        { name: 'notes.txt', data: b, path: 'docs' },
      ],
    });

    const links = await resolved({ url: transferLink(t.transfer.slug) });
    expect(links.kind).toBe('transfer');
    expect(links.title).toBe('Plans');
    expect(links.files.map((f) => [f.fileId, f.name, f.path, f.sizeBytes, f.crc32])).toEqual([
      [t.files[0]!.id, 'plan.pdf', null, a.length, crcHex(a)],
      [t.files[1]!.id, 'notes.txt', 'docs', b.length, crcHex(b)],
    ]);
    expect(links.zip.name).toBe('Plans.zip');
    // A visit lasts 12 hours.
    expect(new Date(links.expiresAt).getTime()).toBe(server.clock.now().getTime() + 12 * 3600_000);
    expect(await receiptsOf(t.transfer.id)).toEqual([]);

    const file = await download(server, links.files[0]!.url);
    expect(file.res.status).toBe(200);
    expect(file.body.equals(a)).toBe(true);
    expect(crcHex(file.body)).toBe(links.files[0]!.crc32);
    // Resumable like any signed link.
    const part = await download(server, links.files[1]!.url, { headers: { range: 'bytes=10-19' } });
    expect(part.res.status).toBe(206);
    expect(part.body.equals(b.subarray(10, 20))).toBe(true);
    const zip = await download(server, links.zip.url);
    expect(zip.res.status).toBe(200);
    expectZipOf(zip.body, links.zip.sizeBytes, [a, b]);

    // One visit: receipts for what was downloaded, one count, one transfer.downloaded event.
    await expect.poll(async () => (await receiptsOf(t.transfer.id)).length).toBe(3);
    const receipts = await receiptsOf(t.transfer.id);
    expect(new Set(receipts.map((r) => r.sessionId)).size).toBe(1);
    expect(receipts.every((r) => r.recipientEmail === null)).toBe(true);
    expect((await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(1);
    const evts = await server.services.db.select().from(events).where(eq(events.subjectId, t.transfer.id));
    expect(evts.map((e) => e.type)).toEqual(['transfer.downloaded']);

    // Resolving again is another visit, and counts again once it downloads.
    const again = await resolved({ url: transferLink(t.transfer.slug) });
    await download(server, again.files[1]!.url);
    await expect.poll(async () => (await reloadTransfer(server, t.transfer.id)).downloadCount).toBe(2);
  });

  it('attributes the receipts of a personal link to its recipient', async () => {
    const data = randomBytes(5_000);
    const t = await seedTransfer(server, { title: 'For you', files: [{ name: 'a.bin', data }], recipients: ['ada@example.test', 'bob@example.test'] });
    const links = await resolved({ url: `${transferLink(t.transfer.slug)}?r=${t.recipientTokens.get('bob@example.test')}` });
    expect((await download(server, links.files[0]!.url)).body.equals(data)).toBe(true);
    await expect.poll(async () => (await receiptsOf(t.transfer.id)).map((r) => r.recipientEmail)).toEqual(['bob@example.test']);
    const [evt] = await server.services.db.select().from(events).where(eq(events.subjectId, t.transfer.id));
    expect((evt!.data as { download: { recipient: unknown } }).download.recipient).toBe('bob@example.test');

    // An unknown token is ignored, as on the recipient page: the link still works, unattributed.
    const anon = await resolved({ url: `${transferLink(t.transfer.slug)}?r=nobody` });
    expect(anon.files).toHaveLength(1);
  });

  it('needs the password of a protected transfer: none is 401 password_required, a wrong one 401 wrong_password, the right one links', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'a.bin', data: randomBytes(100) }], password: 'open sesame' });
    const url = transferLink(t.transfer.slug);
    const missing = await errorOf(await resolve({ url }), 401);
    expect(missing.code).toBe('password_required');
    expect((await errorOf(await resolve({ url, password: 'guess' }), 401)).code).toBe('wrong_password');
    const links = await resolved({ url, password: 'open sesame' });
    expect(links.kind).toBe('transfer');
    expect(links.title).toBeNull();
    expect(links.files).toHaveLength(1);
  });

  it('limits wrong passwords per link and key: 429 after the allowance, while another key still may try', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'a.bin', data: randomBytes(100) }], password: 'open sesame' });
    const url = transferLink(t.transfer.slug);
    for (let i = 0; i < UNLOCK_FAILURES_ALLOWED; i++) expect((await errorOf(await resolve({ url, password: `wrong ${i}` }), 401)).code).toBe('wrong_password');
    const limited = await resolve({ url, password: 'wrong again' });
    const err = await errorOf(limited, 429);
    expect(err.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Even the right password waits, from this key; another key has its own allowance.
    expect((await errorOf(await resolve({ url, password: 'open sesame' }), 429)).code).toBe('rate_limited');
    expect((await errorOf(await resolve({ url, password: 'wrong' }, otherToken), 401)).code).toBe('wrong_password');
    expect((await resolved({ url, password: 'open sesame' }, otherToken)).files).toHaveLength(1);
    // Another link is not affected.
    const other = await seedTransfer(server, { files: [{ name: 'b.bin', data: randomBytes(10) }], password: 'open sesame' });
    expect((await resolved({ url: transferLink(other.transfer.slug), password: 'open sesame' })).files).toHaveLength(1);
  });

  it('answers 410 link_unavailable with the reason for an expired, revoked, infected or used-up link', async () => {
    const files = [{ name: 'a.bin', data: randomBytes(1_000) }];
    const expiring = await seedTransfer(server, { files, expiresInMs: 60_000 });
    expect((await resolved({ url: transferLink(expiring.transfer.slug) })).files).toHaveLength(1);
    server.clock.advance(60_001);
    expect((await errorOf(await resolve({ url: transferLink(expiring.transfer.slug) }), 410)).details).toEqual({ reason: 'expired' });

    const revoked = await seedTransfer(server, { files, status: 'removed' });
    const revokedErr = await errorOf(await resolve({ url: transferLink(revoked.transfer.slug) }), 410);
    expect([revokedErr.code, revokedErr.details]).toEqual(['link_unavailable', { reason: 'revoked' }]);
    const infected = await seedTransfer(server, { files, status: 'infected' });
    expect((await errorOf(await resolve({ url: transferLink(infected.transfer.slug) }), 410)).details).toEqual({ reason: 'infected' });

    // maxDownloads 1: the first visit's download uses it up; the next resolve is refused.
    const limited = await seedTransfer(server, { files, maxDownloads: 1 });
    const links = await resolved({ url: transferLink(limited.transfer.slug) });
    await download(server, links.files[0]!.url);
    await expect.poll(async () => (await reloadTransfer(server, limited.transfer.id)).downloadCount).toBe(1);
    const used = await errorOf(await resolve({ url: transferLink(limited.transfer.slug) }), 410);
    expect([used.code, used.details]).toEqual(['link_unavailable', { reason: 'limit_reached' }]);
  });

  it('answers 404 for a link that names nothing (unknown slug, a draft) and 409 e2ee_unsupported for an end-to-end encrypted transfer', async () => {
    expect((await errorOf(await resolve({ url: transferLink('NoSuchSlug123') }), 404)).code).toBe('not_found');
    const draft = await seedTransfer(server, { files: [{ name: 'a.bin', data: randomBytes(10) }], finalized: false });
    expect((await errorOf(await resolve({ url: transferLink(draft.transfer.slug) }), 404)).code).toBe('not_found');
    const sealed = await seedTransfer(server, { files: [{ name: 'a.bin', data: randomBytes(10) }], e2ee: true });
    expect((await errorOf(await resolve({ url: `${transferLink(sealed.transfer.slug)}#key=abc` }), 409)).code).toBe('e2ee_unsupported');
    // No visit was started for it.
    expect(await receiptsOf(sealed.transfer.id)).toEqual([]);
  });
});

describe('resolving a collection link', () => {
  async function sharedCollection(body: Record<string, unknown>, contents: Buffer[]): Promise<Collection> {
    const c = await owner.api.create({ title: 'Lookbook', ...body });
    if (contents.length > 0)
      await owner.api.upload(
        c.id,
        contents.map((bytes, i) => ({ name: `photo-${i}.bin`, bytes, ...(i > 0 ? { path: 'More' } : {}) })),
      );
    return c;
  }

  it('resolves a public collection to links for all of it', async () => {
    const contents = [randomBytes(4_000), randomBytes(2_000)];
    const c = await sharedCollection({ visibility: 'public' }, contents);
    const links = await resolved({ url: c.url });
    expect(links.kind).toBe('collection');
    expect(links.title).toBe('Lookbook');
    expect(links.files.map((f) => [f.name, f.path, f.sizeBytes, f.crc32])).toEqual([
      ['photo-0.bin', null, contents[0]!.length, crcHex(contents[0]!)],
      ['photo-1.bin', 'More', contents[1]!.length, crcHex(contents[1]!)],
    ]);
    for (const [i, f] of links.files.entries()) expect((await download(server, f.url)).body.equals(contents[i]!)).toBe(true);
    const zip = await download(server, links.zip.url);
    expect(zip.res.status).toBe(200);
    expectZipOf(zip.body, links.zip.sizeBytes, contents);
  });

  it('applies the password rule to a password collection, and 403 guests_only to a private one', async () => {
    const locked = await sharedCollection({ visibility: 'password', password: 'let me in' }, [randomBytes(100)]);
    expect((await errorOf(await resolve({ url: locked.url }), 401)).code).toBe('password_required');
    expect((await errorOf(await resolve({ url: locked.url, password: 'nope' }), 401)).code).toBe('wrong_password');
    expect((await resolved({ url: locked.url, password: 'let me in' })).files).toHaveLength(1);
    for (let i = 1; i < UNLOCK_FAILURES_ALLOWED; i++) await resolve({ url: locked.url, password: 'nope' });
    expect((await errorOf(await resolve({ url: locked.url, password: 'nope' }), 429)).code).toBe('rate_limited');

    const closed = await sharedCollection({}, [randomBytes(100)]);
    expect(closed.visibility).toBe('private');
    expect((await errorOf(await resolve({ url: closed.url }), 403)).code).toBe('guests_only');
    expect((await errorOf(await resolve({ url: closed.url, password: 'anything' }), 403)).code).toBe('guests_only');
  });

  it('answers 410 link_unavailable, reason deleted, for a deleted collection (404 stays for links that never were)', async () => {
    const c = await sharedCollection({ visibility: 'public' }, []);
    expect((await owner.api.call('DELETE', `/collections/${c.id}`)).status).toBe(200);
    const gone = await errorOf(await resolve({ url: c.url }), 410);
    expect([gone.code, gone.details]).toEqual(['link_unavailable', { reason: 'deleted' }]);
    expect((await errorOf(await resolve({ url: c.url!.replace(/[^/]{4}$/, 'Zz9Q') }), 404)).code).toBe('not_found');
  });

  it('resolves a custom-domain link of a collection with customLink on, and only that', async () => {
    const set = await setCustomDomain(server.services.db, owner.id, 'files.lookbook.test');
    expect(set.status).toBe('set');
    const contents = [randomBytes(1_000)];
    const c = await sharedCollection({ visibility: 'public' }, contents);
    // Off by default: the domain serves no such page.
    expect((await errorOf(await resolve({ url: `https://files.lookbook.test/${c.slug}` }), 404)).code).toBe('not_found');
    expect((await owner.api.call('PATCH', `/collections/${c.id}`, { customLink: true })).status).toBe(200);
    const links = await resolved({ url: `https://FILES.lookbook.test/${c.slug}` });
    expect(links.kind).toBe('collection');
    expect((await download(server, links.files[0]!.url)).body.equals(contents[0]!)).toBe(true);
    // The same domain names no transfer or /c/ path, and a domain nobody has is not a link of this service.
    expect((await errorOf(await resolve({ url: `https://files.lookbook.test/c/${c.slug}` }), 400)).details).toMatchObject({ fields: [{ path: 'url' }] });
    expect((await errorOf(await resolve({ url: `https://elsewhere.test/${c.slug}` }), 400)).details).toMatchObject({ fields: [{ path: 'url' }] });
    expect(outbound).toEqual([]);
  });
});

describe('what resolve accepts', () => {
  it('refuses with 400 naming url anything that is not a link of this service, without any outbound request', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'a.bin', data: randomBytes(10) }] });
    const bad = [
      `https://example.com/t/${t.transfer.slug}`,
      'https://example.com/t/abc',
      `${publicUrl}:8443/t/${t.transfer.slug}`,
      `https://127.0.0.1/t/${t.transfer.slug}`,
      `${publicUrl}/dashboard`,
      `${publicUrl}/t/`,
      `${publicUrl}/t/${t.transfer.slug}/extra`,
      `${publicUrl}/api/public/transfers/${t.transfer.slug}`,
      `${publicUrl.replace('://', '://user:pw@')}/t/${t.transfer.slug}`,
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      `ftp://127.0.0.1/t/${t.transfer.slug}`,
      'not a url',
      `${publicUrl}/t/${t.transfer.slug}?r=${'x'.repeat(2100)}`,
    ];
    for (const url of bad) {
      const err = await errorOf(await resolve({ url }), 400);
      expect(err.code, url).toBe('invalid_request');
      expect(err.details, url).toMatchObject({ fields: [{ path: 'url' }] });
    }
    expect((await errorOf(await resolve({}), 400)).details).toMatchObject({ fields: [{ path: 'url' }] });
    expect(outbound).toEqual([]);

    // A trailing slash, other query parameters and a fragment are fine.
    expect((await resolved({ url: `${transferLink(t.transfer.slug)}/?utm_source=mail#top` })).files).toHaveLength(1);
  });

  it('works with a key of any scope on the free plan, and not without a valid credential', async () => {
    const t = await seedTransfer(server, { files: [{ name: 'a.bin', data: randomBytes(10) }] });
    const ws = await server.createWorkspace({ plan: 'free' });
    for (const scopes of [['transfers:read'], ['collections:read'], ['contacts:write'], ['webhooks:write']] as const) {
      expect((await resolved({ url: transferLink(t.transfer.slug) }, await ws.createKey([...scopes]))).kind).toBe('transfer');
    }
    expect((await errorOf(await server.fetch('/api/v1/links/resolve', { method: 'POST', json: { url: transferLink(t.transfer.slug) } }), 401)).code).toBe(
      'unauthorized',
    );
  });

  it("applies the caller's own rate limits, not the anonymous 60 a minute", async () => {
    const t = await seedTransfer(server, { files: [{ name: 'a.bin', data: randomBytes(10) }] });
    const ws = await server.createWorkspace({ plan: 'free' });
    const key = await ws.createKey(['webhooks:read']);
    expect(server.services.config.RATE_LIMIT_ANONYMOUS_PER_MINUTE).toBe(60);
    for (let i = 0; i < 70; i++) {
      const res = await resolve({ url: transferLink(t.transfer.slug) }, key);
      expect(res.status, `call ${i + 1}`).toBe(200);
      // The key's bucket was charged, not the anonymous one.
      if (i === 69) expect(res.headers.get('ratelimit-policy')).toContain(`;q=${server.services.config.RATE_LIMIT_KEY_PER_MINUTE};w=60`);
      await res.body?.cancel();
    }
  });
});
