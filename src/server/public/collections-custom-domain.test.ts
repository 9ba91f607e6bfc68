import http from 'node:http';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema } from '../../contract/errors.js';
import { PublicCollectionFilePageSchema, PublicCollectionSchema } from '../../contract/public-collections.js';
import { DownloadLinksSchema } from '../../contract/transfers.js';
import { domainSet } from '../admin/commands.js';
import { collectionsApi, previewsSettled } from '../test/collections.js';
import { workspaces } from '../db/schema/index.js';
import { listOutbox, readOutboxMessage } from '../mail/file-mailer.js';
import { startTestServer, type TestServer } from '../test/harness.js';

/**
 * The public collection API on a workspace's own domain: only that workspace's collections with a
 * custom link, and every signed URL on the domain the visitor is on (the page's CSP and the
 * previews' CORP take only their own origin). Node's fetch replaces the Host header, so these
 * requests go through http.request.
 */

const DOMAIN = 'files.example.com';
let server: TestServer;
let port: string;
let png: Buffer;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000' });
  port = new URL(server.url).port;
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .png()
    .toBuffer();
});
afterAll(() => server?.stop());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request with this Host header (and the given method, JSON body and headers). */
function request(pathname: string, host: string, init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const body = init.json === undefined ? undefined : JSON.stringify(init.json);
  const headers: Record<string, string> = { ...init.headers, host, ...(body ? { 'content-type': 'application/json' } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${pathname}`, { method: init.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const json = (answer: Answer): unknown => JSON.parse(answer.body.toString('utf8'));
/** The path and query of a signed URL, to request it with a Host of our choice. */
const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

async function workspaceWithDomain(domain: string) {
  const ws = await server.createWorkspace({ plan: 'paid' });
  await domainSet(server.services.db, { workspaceId: ws.id, domain });
  const token = await ws.createKey(['collections:read', 'collections:write'], 'collections');
  const api = collectionsApi(server, token);
  /** A collection; with `customLink`, turned on as an owner does (it is a setting of an existing collection). */
  const create = async (body: Record<string, unknown>, customLink = false) => {
    const c = await api.create(body);
    if (customLink) expect((await api.call('PATCH', `/collections/${c.id}`, { customLink: true })).status).toBe(200);
    return c;
  };
  return { ws, token, api, create };
}

describe("the public collection API on a workspace's own domain", () => {
  let mine: Awaited<ReturnType<typeof workspaceWithDomain>>;
  let shown: { slug: string; id: string };
  let imageId: string;
  beforeAll(async () => {
    mine = await workspaceWithDomain(DOMAIN);
    const c = await mine.create({ title: 'On our domain', visibility: 'public' }, true);
    const ids = await mine.api.upload(c.id, [
      { name: 'photo.png', bytes: png, mimeType: 'image/png', path: 'Shoot' },
      { name: 'notes.txt', bytes: Buffer.from('hello') },
    ]);
    imageId = ids[0]!;
    expect((await mine.api.call('PATCH', `/collections/${c.id}`, { coverFileId: imageId })).status).toBe(200);
    await previewsSettled(server, c.id);
    shown = c;
  });

  it('builds preview and download URLs on that domain, which serves them', async () => {
    const origin = `http://${DOMAIN}:${port}`;
    const host = `${DOMAIN}:${port}`;
    const page = await request(`/api/public/collections/${shown.slug}`, host);
    expect(page.status, page.body.toString()).toBe(200);
    const body = PublicCollectionSchema.parse(json(page));
    expect(body.cover?.thumbnailUrl).toMatch(new RegExp(`^${origin}/thumb/`));

    const files = PublicCollectionFilePageSchema.parse(json(await request(`/api/public/collections/${shown.slug}/files`, host)));
    const photo = files.files.find((f) => f.id === imageId)!;
    expect(photo.thumbnailUrl).toMatch(new RegExp(`^${origin}/thumb/`));
    const preview = await request(pathOf(photo.thumbnailUrl!), host);
    expect(preview.status).toBe(200);
    expect(preview.headers['content-type']).toBe('image/webp');

    const links = DownloadLinksSchema.parse(json(await request(`/api/public/collections/${shown.slug}/download-links`, host)));
    for (const url of [links.zip.url, ...links.files.map((f) => f.url)]) expect(url.startsWith(`${origin}/dl/`), url).toBe(true);
    const downloaded = await request(pathOf(links.files.find((f) => f.fileId === imageId)!.url), host);
    expect(downloaded.status).toBe(200);
    expect(downloaded.body.equals(png)).toBe(true);
  });

  it('keeps the service’s own address for the same collection on the service’s host', async () => {
    const body = PublicCollectionSchema.parse(await (await server.fetch(`/api/public/collections/${shown.slug}`)).json());
    expect(body.cover?.thumbnailUrl).toMatch(/^http:\/\/127\.0\.0\.1\/thumb\//);
    const links = DownloadLinksSchema.parse(await (await server.fetch(`/api/public/collections/${shown.slug}/download-links`)).json());
    expect(links.zip.url).toMatch(/^http:\/\/127\.0\.0\.1\/dl\//);
  });

  it('answers 404 for a collection without a custom link and for another workspace’s, suspended or not', async () => {
    const unlinked = await mine.api.create({ title: 'Only at /c', visibility: 'public' });
    const theirs = await workspaceWithDomain('share.other.example');
    const foreign = await theirs.create({ title: 'Theirs', visibility: 'public' }, true);

    for (const slug of [unlinked.slug, foreign.slug]) {
      for (const path of ['', '/files', '/download-links']) {
        const answer = await request(`/api/public/collections/${slug}${path}`, DOMAIN);
        expect([slug, path, answer.status]).toEqual([slug, path, 404]);
        expect(ErrorSchema.parse(json(answer)).error.code).toBe('not_found');
      }
      expect((await request(`/api/public/collections/${slug}/unlock`, DOMAIN, { method: 'POST', json: { password: 'x' } })).status).toBe(404);
      expect((await request(`/api/public/collections/${slug}/guest-sign-in`, DOMAIN, { method: 'POST', json: { email: 'a@b.io' } })).status).toBe(404);
    }
    // Both are there on the service's host, and the foreign one on its own workspace's domain.
    expect((await server.fetch(`/api/public/collections/${unlinked.slug}`)).status).toBe(200);
    expect((await request(`/api/public/collections/${foreign.slug}`, 'share.other.example')).status).toBe(200);

    // A suspended workspace's collection is not even "unavailable" on someone else's domain.
    await server.services.db.update(workspaces).set({ disabledAt: server.clock.now() }).where(eq(workspaces.id, theirs.ws.id));
    try {
      expect((await request(`/api/public/collections/${foreign.slug}`, DOMAIN)).status).toBe(404);
      expect((await request(`/api/public/collections/${foreign.slug}`, 'share.other.example')).status).toBe(410);
    } finally {
      await server.services.db.update(workspaces).set({ disabledAt: null }).where(eq(workspaces.id, theirs.ws.id));
    }
  });

  it('treats a host that is nobody’s domain as the service’s own', async () => {
    const unlinked = await mine.api.create({ title: 'Anywhere', visibility: 'public' });
    const answer = await request(`/api/public/collections/${unlinked.slug}`, 'unknown.example.net');
    expect(answer.status).toBe(200);
  });

  it('mails a guest a sign-in link back to the domain they asked from', async () => {
    const c = await mine.create({ title: 'Guests on our domain', visibility: 'private' }, true);
    const invited = await server.fetch(`/api/v1/collections/${c.id}/guests`, { method: 'POST', token: mine.token, json: { emails: ['guest@example.test'] } });
    expect(invited.status).toBe(200);
    const asked = await request(`/api/public/collections/${c.slug}/guest-sign-in`, `${DOMAIN}:${port}`, {
      method: 'POST',
      json: { email: 'guest@example.test' },
    });
    expect(asked.status).toBe(202);

    const signInMail = async () => {
      const [entry] = (await listOutbox(server.dataDir, mine.ws.id, 1000)).filter((m) => m.tag === 'collection.guest_sign_in');
      if (!entry) return null;
      // Quoted-printable: soft line breaks out, `=3D` back to `=`.
      return (await readOutboxMessage(server.dataDir, mine.ws.id, entry.id))!
        .toString('utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
    };
    await expect.poll(signInMail).not.toBeNull();
    const token = new RegExp(`http://${DOMAIN.replace(/\./g, '\\.')}:${port}/${c.slug}\\?guest=([0-9A-Za-z]+)`).exec((await signInMail())!)?.[1];
    expect(token).toBeDefined();

    const session = await request(`/api/public/collections/${c.slug}/guest-session`, `${DOMAIN}:${port}`, { method: 'POST', json: { token } });
    expect(session.status).toBe(200);
    const cookie = String(session.headers['set-cookie']).split(';')[0]!;
    const page = await request(`/api/public/collections/${c.slug}`, `${DOMAIN}:${port}`, { headers: { cookie } });
    expect(PublicCollectionSchema.parse(json(page))).toMatchObject({ access: 'guest', guestEmail: 'guest@example.test' });
  });
});
