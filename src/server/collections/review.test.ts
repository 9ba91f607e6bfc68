import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollectionFilePageSchema, CommentListSchema, CommentResponseSchema, GuestListSchema, ReviewResponseSchema } from '../../contract/collections.js';
import { PublicCollectionFilePageSchema } from '../../contract/public-collections.js';
import { events } from '../db/schema/index.js';
import { listOutbox } from '../mail/file-mailer.js';
import { collectionsApi } from '../test/collections.js';
import { errorOf, startTestServer, type TestServer } from '../test/harness.js';
import { GUEST_COOKIE, issueGuestSession } from './access.js';
import { sendReviewDigests } from './review.js';
import { eq } from 'drizzle-orm';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000' });
});
afterAll(() => server.stop());

async function setUp(reviewMail?: 'daily' | 'each' | 'off') {
  const ws = await server.createWorkspace({ plan: 'paid' });
  const api = collectionsApi(server, await ws.createKey(['collections:read', 'collections:write'], 'studio key'));
  const c = await api.create({ title: 'Lookbook review', visibility: 'private' });
  if (reviewMail) await api.expectStatus(await api.call('PATCH', `/collections/${c.id}`, { reviewMail }), 200);
  const [cover, back] = await api.upload(c.id, [
    { name: 'cover.jpg', bytes: Buffer.from('cover image bytes') },
    { name: 'back.jpg', bytes: Buffer.from('back image bytes') },
  ]);
  await api.expectStatus(await api.call('POST', `/collections/${c.id}/guests`, { emails: ['ada@example.test'] }), 200);
  const guests = GuestListSchema.parse(await api.expectStatus(await api.call('GET', `/collections/${c.id}/guests`), 200)).guests;
  const cookie = `${GUEST_COOKIE}=${issueGuestSession(server.services, { id: guests[0]!.id, collectionId: c.id }, server.clock.now()).token}`;
  const asGuest = (method: string, path: string, json?: unknown, withCookie = cookie) =>
    server.fetch(`/api/public/collections/${c.slug}${path}`, { method, json, headers: withCookie ? { cookie: withCookie } : {} });
  return { ws, api, c, cover: cover!, back: back!, guest: guests[0]!, asGuest };
}

describe('reviewing a collection', () => {
  it('lets a guest comment and approve, and the owner sees both, filters by decision, and answers', async () => {
    const s = await setUp();
    const said = await s.asGuest('POST', `/files/${s.cover}/comments`, { body: '  Love it.\nCan the logo be bigger? <b>please</b>  ' });
    expect(said.status).toBe(201);
    expect(CommentResponseSchema.parse(await said.json()).comment).toMatchObject({
      fileId: s.cover,
      author: { kind: 'guest', id: s.guest.id, email: 'ada@example.test', name: null },
      body: 'Love it.\nCan the logo be bigger? <b>please</b>',
    });
    const decided = ReviewResponseSchema.parse(await (await s.asGuest('PUT', `/files/${s.cover}/review`, { state: 'approved' })).json()).review;
    expect(decided).toMatchObject({ state: 'approved', by: { kind: 'guest', email: 'ada@example.test' } });
    await s.asGuest('PUT', `/files/${s.back}/review`, { state: 'changes_requested' });

    // The owner: the decision and count on each file, the thread, and the filter.
    const files = CollectionFilePageSchema.parse(await s.api.expectStatus(await s.api.call('GET', `/collections/${s.c.id}/files`), 200)).files;
    expect(files.map((f) => [f.name, f.review?.state ?? null, f.commentCount])).toEqual([
      ['cover.jpg', 'approved', 1],
      ['back.jpg', 'changes_requested', 0],
    ]);
    for (const [review, names] of [
      ['approved', ['cover.jpg']],
      ['changes_requested', ['back.jpg']],
      ['none', []],
    ] as const) {
      const page = CollectionFilePageSchema.parse(await s.api.expectStatus(await s.api.call('GET', `/collections/${s.c.id}/files?review=${review}`), 200));
      expect([review, page.files.map((f) => f.name)]).toEqual([review, names]);
    }
    const reply = CommentResponseSchema.parse(await s.api.expectStatus(await s.api.call('POST', `/collections/${s.c.id}/files/${s.cover}/comments`, { body: 'Bigger logo coming.' }), 201)).comment;
    expect(reply.author).toEqual({ kind: 'key', id: expect.stringMatching(/^key_/), email: null, name: 'studio key' });
    const thread = CommentListSchema.parse(await s.api.expectStatus(await s.api.call('GET', `/collections/${s.c.id}/files/${s.cover}/comments`), 200)).comments;
    expect(thread.map((m) => m.body)).toEqual(['Love it.\nCan the logo be bigger? <b>please</b>', 'Bigger logo coming.']);
    // The guest reads the whole thread too, and sees the decisions on their page.
    const theirs = CommentListSchema.parse(await (await s.asGuest('GET', `/files/${s.cover}/comments`)).json()).comments;
    expect(theirs.map((m) => m.author.kind)).toEqual(['guest', 'key']);
    const page = PublicCollectionFilePageSchema.parse(await (await s.asGuest('GET', '/files')).json()).files;
    expect(page.map((f) => [f.review?.state ?? null, f.commentCount])).toEqual([
      ['approved', 2],
      ['changes_requested', 0],
    ]);

    // Each decision is a webhook event, with who made it.
    const emitted = await server.services.db.select().from(events).where(eq(events.workspaceId, s.ws.id));
    const reviewed = emitted.filter((e) => e.type === 'collection.file_reviewed').map((e) => (e.data as { file: { name: string }; review: { state: string; by: { kind: string } } }));
    expect(reviewed.map((d) => [d.file.name, d.review.state, d.review.by.kind])).toEqual([
      ['cover.jpg', 'approved', 'guest'],
      ['back.jpg', 'changes_requested', 'guest'],
    ]);
    // Cleared by the owner.
    expect(ReviewResponseSchema.parse(await s.api.expectStatus(await s.api.call('PUT', `/collections/${s.c.id}/files/${s.back}/review`, { state: null }), 200)).review).toBeNull();
  });

  it('refuses visitors who are not guests, empty or hostile bodies, and files they cannot see', async () => {
    const s = await setUp();
    await s.api.expectStatus(await s.api.call('PATCH', `/collections/${s.c.id}`, { visibility: 'public' }), 200);
    // Anyone with the public link reads the files, but neither the comments nor the decisions, and cannot add any.
    const visitor = PublicCollectionFilePageSchema.parse(await (await s.asGuest('GET', '/files', undefined, '')).json()).files;
    expect(visitor.every((f) => f.review === null && f.commentCount === 0)).toBe(true);
    for (const [method, path, body] of [
      ['GET', `/files/${s.cover}/comments`, undefined],
      ['POST', `/files/${s.cover}/comments`, { body: 'hi' }],
      ['PUT', `/files/${s.cover}/review`, { state: 'approved' }],
    ] as const) {
      const refused = await errorOf(await s.asGuest(method, path, body, ''), 403);
      expect([method, refused.code, refused.details.reason]).toEqual([method, 'forbidden', 'not_a_guest']);
    }
    for (const body of [{ body: '   ' }, { body: 'x'.repeat(5001) }, { body: 'bell\u0007' }]) {
      const error = await errorOf(await s.asGuest('POST', `/files/${s.cover}/comments`, body), 400);
      expect((error.details.fields as { path: string }[])[0]!.path).toBe('body');
    }
    expect((await errorOf(await s.asGuest('PUT', `/files/${s.cover}/review`, { state: 'rejected' }), 400)).code).toBe('invalid_request');
    // In the trash, or another's: not found.
    await s.api.expectStatus(await s.api.call('DELETE', `/collections/${s.c.id}/files`, { fileIds: [s.back] }), 200);
    expect((await errorOf(await s.asGuest('POST', `/files/${s.back}/comments`, { body: 'hi' }), 404)).code).toBe('not_found');
    const other = await setUp();
    expect((await errorOf(await s.asGuest('GET', `/files/${other.cover}/comments`), 404)).code).toBe('not_found');
    expect((await errorOf(await other.api.call('GET', `/collections/${other.c.id}/files/${s.cover}/comments`), 404)).code).toBe('not_found');
  });

  it('mails the workspace about guests’ reviews as the collection says: each one, a daily digest, or not at all', async () => {
    const mails = async (workspaceId: string) => (await listOutbox(server.dataDir, workspaceId, 100)).filter((m) => m.tag === 'collection.review');
    const each = await setUp('each');
    await each.asGuest('POST', `/files/${each.cover}/comments`, { body: 'One thing.' });
    await each.asGuest('PUT', `/files/${each.cover}/review`, { state: 'approved' });
    expect((await mails(each.ws.id)).map((m) => m.subject)).toEqual(['ada@example.test approved “cover.jpg”', 'ada@example.test commented on “cover.jpg”']);

    const daily = await setUp();
    await daily.asGuest('POST', `/files/${daily.cover}/comments`, { body: 'Nice.' });
    await daily.asGuest('PUT', `/files/${daily.back}/review`, { state: 'changes_requested' });
    // The owner's own doings are no news to the owner.
    await daily.api.expectStatus(await daily.api.call('POST', `/collections/${daily.c.id}/files/${daily.cover}/comments`, { body: 'Thanks!' }), 201);
    expect(await mails(daily.ws.id)).toEqual([]);
    expect(await sendReviewDigests(server.services)).toBeGreaterThanOrEqual(1);
    const [digest] = await mails(daily.ws.id);
    expect(digest?.subject).toBe('Reviews of “Lookbook review”: 1 decision, 1 comment');
    // A day must pass before the next, and only news makes one.
    await daily.asGuest('POST', `/files/${daily.cover}/comments`, { body: 'Also…' });
    await sendReviewDigests(server.services);
    expect(await mails(daily.ws.id)).toHaveLength(1);
    server.clock.advance(24 * 3_600_000 + 60_000);
    await sendReviewDigests(server.services);
    expect(await mails(daily.ws.id)).toHaveLength(2);
    await sendReviewDigests(server.services);
    expect(await mails(daily.ws.id)).toHaveLength(2);

    const off = await setUp('off');
    await off.asGuest('PUT', `/files/${off.cover}/review`, { state: 'approved' });
    server.clock.advance(24 * 3_600_000 + 60_000);
    await sendReviewDigests(server.services);
    expect(await mails(off.ws.id)).toEqual([]);
  });
});
