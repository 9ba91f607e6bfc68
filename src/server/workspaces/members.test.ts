import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CollectionFilePageSchema, CollectionResponseSchema } from '../../contract/collections.js';
import { ApiKeyListSchema, SessionSchema } from '../../contract/dashboard.js';
import { MeSchema } from '../../contract/me.js';
import { InvitationPreviewSchema, MemberInvitationSchema, MemberListSchema, WorkspaceListSchema } from '../../contract/members.js';
import { CreateTransferResponseSchema, TransferListSchema, TransferSchema } from '../../contract/transfers.js';
import type { OutgoingMessage } from '../mail/message.js';
import { download, seedTransfer, startSession } from '../test/transfers.js';
import { tusUpload } from '../test/uploads.js';
import { makeDueThumbnails } from '../thumbnails/thumbnails.js';
import { expectError, sessionCookieOf, signIn, recordMail, startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';

/**
 * Teams through HTTP (docs/teams.md): inviting by email, joining as a new person or with an
 * account of another workspace, roles read on every request, removal ending access at once,
 * handing over ownership, the switcher, and a member managing only their own transfers.
 */

let server: TestServer;
let sent: OutgoingMessage[];
let team: TestWorkspace;
let ownerCookie: string;

beforeAll(async () => {
  server = await startTestServer();
  sent = recordMail(server);
  team = await server.createWorkspace({ plan: 'paid' });
  ownerCookie = await signIn(server, team);
});
afterAll(() => server.stop());

const password = 'correct horse battery';
const newEmail = (who: string) => `${who}-${randomUUID().slice(0, 8)}@example.test`;
const dashboard = (path: string, cookie: string, init: { method?: string; json?: unknown } = {}) => server.fetch(`/api/dashboard${path}`, { ...init, headers: { cookie } });

async function invite(cookie: string, email: string, role: 'admin' | 'member') {
  const res = await dashboard('/members/invitations', cookie, { method: 'POST', json: { email, role } });
  expect(res.status, await res.clone().text()).toBe(201);
  return MemberInvitationSchema.parse(await res.json());
}

/** The token of the last invitation mailed to the address (from the link `/join?token=…`). */
function invitationToken(email: string): string {
  const mail = sent.filter((m) => m.tag === 'workspace.invitation' && m.to === email).at(-1);
  expect(mail, `an invitation mailed to ${email}`).toBeDefined();
  const match = mail!.text.match(/\/join\?token=([A-Za-z0-9]+)/);
  expect(match).not.toBeNull();
  return match![1]!;
}

/** Invites a new address with the role and joins it through the join page's sign-up: its session cookie. */
async function newMember(role: 'admin' | 'member', cookie = ownerCookie) {
  const email = newEmail(role);
  await invite(cookie, email, role);
  const res = await server.fetch('/api/dashboard/join/signup', { method: 'POST', json: { token: invitationToken(email), name: `New ${role}`, password } });
  expect(res.status, await res.clone().text()).toBe(201);
  return { email, cookie: sessionCookieOf(res), session: SessionSchema.parse(await res.json()) };
}

async function tokenOf(cookie: string) {
  const res = await dashboard('/token', cookie, { method: 'POST' });
  expect(res.status).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

const me = async (token: string) => MeSchema.parse(await (await server.fetch('/api/v1/me', { token })).json());

describe('invitations', () => {
  it('mail a link that signs a new person up into the workspace with the role, named as they gave', async () => {
    const email = newEmail('newcomer');
    const invitation = await invite(ownerCookie, email.toUpperCase(), 'member');
    expect(invitation).toMatchObject({ email, role: 'member', expired: false, invitedBy: { email: team.email } });
    const token = invitationToken(email);
    const preview = InvitationPreviewSchema.parse(await (await server.fetch('/api/dashboard/join/preview', { method: 'POST', json: { token } })).json());
    expect(preview).toMatchObject({ email, role: 'member', hasAccount: false, invitedBy: { email: team.email } });

    const joined = await server.fetch('/api/dashboard/join/signup', { method: 'POST', json: { token, name: ' Grace Hopper ', password } });
    expect(joined.status).toBe(201);
    const session = SessionSchema.parse(await joined.json());
    expect(session.user).toMatchObject({ email, name: 'Grace Hopper', isOperator: false });
    expect(session.workspace).toMatchObject({ id: team.id, role: 'member' });
    const account = await me(await tokenOf(sessionCookieOf(joined)));
    expect(account.member).toMatchObject({ email, name: 'Grace Hopper' });
    expect(account.role).toBe('member');
    expect(account.key.scopes.some((s) => s.startsWith('webhooks:'))).toBe(false);

    // The link works once.
    await expectError(await server.fetch('/api/dashboard/join/preview', { method: 'POST', json: { token } }), 410, 'gone');
    const list = MemberListSchema.parse(await (await dashboard('/members', ownerCookie)).json());
    expect(list.members.find((m) => m.email === email)).toMatchObject({ role: 'member', name: 'Grace Hopper', disabled: false });
    expect(list.invitations.find((i) => i.email === email)).toBeUndefined();
  });

  it('let a person with an account in another workspace accept by signing in, and switch between both', async () => {
    const elsewhere = await server.createWorkspace();
    await invite(ownerCookie, elsewhere.email, 'admin');
    const token = invitationToken(elsewhere.email);
    expect(InvitationPreviewSchema.parse(await (await server.fetch('/api/dashboard/join/preview', { method: 'POST', json: { token } })).json()).hasAccount).toBe(true);
    // Creating another account for the address is refused: sign in instead.
    await expectError(await server.fetch('/api/dashboard/join/signup', { method: 'POST', json: { token, name: 'Twin', password } }), 409, 'conflict', { reason: 'email_taken' });

    const cookie = await signIn(server, elsewhere);
    const accepted = await dashboard('/join', cookie, { method: 'POST', json: { token } });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    expect(SessionSchema.parse(await accepted.json()).workspace).toMatchObject({ id: team.id, role: 'admin' });
    const choices = WorkspaceListSchema.parse(await (await dashboard('/workspaces', cookie)).json()).workspaces;
    expect(choices.map((w) => [w.id, w.role])).toEqual([
      [elsewhere.id, 'owner'],
      [team.id, 'admin'],
    ]);
    // The dashboard token follows the session's workspace.
    expect((await me(await tokenOf(cookie))).workspace.id).toBe(team.id);
    const back = await dashboard('/workspaces/current', cookie, { method: 'POST', json: { workspaceId: elsewhere.id } });
    expect(SessionSchema.parse(await back.json()).workspace).toMatchObject({ id: elsewhere.id, role: 'owner' });
    expect((await me(await tokenOf(cookie))).workspace.id).toBe(elsewhere.id);
    // A workspace they are not in is no choice.
    const stranger = await server.createWorkspace();
    await expectError(await dashboard('/workspaces/current', cookie, { method: 'POST', json: { workspaceId: stranger.id } }), 404, 'not_found');
  });

  it('are accepted only by the invited address', async () => {
    const email = newEmail('invited');
    await invite(ownerCookie, email, 'member');
    const other = await server.createWorkspace();
    const res = await dashboard('/join', await signIn(server, other), { method: 'POST', json: { token: invitationToken(email) } });
    await expectError(res, 403, 'forbidden', { reason: 'invitation_for_another_address' });
  });

  it('refuse a member of the workspace or an address invited already, and can be sent again or revoked', async () => {
    await expectError(await dashboard('/members/invitations', ownerCookie, { method: 'POST', json: { email: team.email, role: 'admin' } }), 409, 'conflict', { reason: 'already_member' });
    const email = newEmail('twice');
    const first = await invite(ownerCookie, email, 'member');
    const oldToken = invitationToken(email);
    await expectError(await dashboard('/members/invitations', ownerCookie, { method: 'POST', json: { email, role: 'admin' } }), 409, 'conflict', { reason: 'already_invited' });

    const resent = await dashboard(`/members/invitations/${first.id}/resend`, ownerCookie, { method: 'POST' });
    expect(resent.status).toBe(200);
    const newToken = invitationToken(email);
    expect(newToken).not.toBe(oldToken);
    await expectError(await server.fetch('/api/dashboard/join/preview', { method: 'POST', json: { token: oldToken } }), 404, 'not_found');
    expect((await server.fetch('/api/dashboard/join/preview', { method: 'POST', json: { token: newToken } })).status).toBe(200);

    expect((await dashboard(`/members/invitations/${first.id}`, ownerCookie, { method: 'DELETE' })).status).toBe(204);
    await expectError(await server.fetch('/api/dashboard/join/preview', { method: 'POST', json: { token: newToken } }), 410, 'gone');
    await expectError(await server.fetch('/api/dashboard/join/signup', { method: 'POST', json: { token: newToken, name: 'Late', password } }), 410, 'gone');
  });

  it('expire after 7 days; the address can then be invited again', async () => {
    const email = newEmail('slow');
    await invite(ownerCookie, email, 'member');
    const token = invitationToken(email);
    server.clock.advance(7 * 24 * 3600 * 1000 + 1000);
    try {
      await expectError(await server.fetch('/api/dashboard/join/preview', { method: 'POST', json: { token } }), 410, 'gone');
      const listed = MemberListSchema.parse(await (await dashboard('/members', ownerCookie)).json()).invitations.find((i) => i.email === email);
      expect(listed?.expired).toBe(true);
      await invite(ownerCookie, email, 'member');
      expect(invitationToken(email)).not.toBe(token);
    } finally {
      server.clock.advance(-(7 * 24 * 3600 * 1000 + 1000));
    }
  });

  it('stop at the plan’s member limit, invitations included (a free workspace holds its owner alone by default)', async () => {
    const free = await server.createWorkspace();
    const cookie = await signIn(server, free);
    await expectError(await dashboard('/members/invitations', cookie, { method: 'POST', json: { email: newEmail('x'), role: 'member' } }), 402, 'upgrade_required', {
      reason: 'member_limit',
      limit: 1,
    });
  });
});

describe('roles', () => {
  it('keep members out of inviting, roles, keys and workspace settings, whatever they send', async () => {
    const { cookie } = await newMember('member');
    const { session: teammate } = await newMember('member');
    await expectError(await dashboard('/members/invitations', cookie, { method: 'POST', json: { email: newEmail('y'), role: 'member' } }), 403, 'forbidden', { reason: 'role_required' });
    await expectError(await dashboard(`/members/${teammate.user.id}`, cookie, { method: 'PATCH', json: { role: 'admin' } }), 403, 'forbidden', { reason: 'role_required' });
    await expectError(await dashboard(`/members/${teammate.user.id}`, cookie, { method: 'DELETE' }), 403, 'forbidden', { reason: 'role_required' });
    await expectError(await dashboard('/keys', cookie), 403, 'forbidden', { reason: 'role_required' });
    await expectError(await dashboard('/keys', cookie, { method: 'POST', json: { name: 'mine', scopes: ['transfers:read'] } }), 403, 'forbidden');
    await expectError(await dashboard('/workspace', cookie, { method: 'PATCH', json: { name: 'Taken over' } }), 403, 'forbidden');
    await expectError(await dashboard('/notifications', cookie, { method: 'PATCH', json: { downloads: false } }), 403, 'forbidden');
    // Members see the team, not the invitations.
    const list = MemberListSchema.parse(await (await dashboard('/members', cookie)).json());
    expect(list.members.length).toBeGreaterThan(2);
    expect(list.invitations).toEqual([]);
  });

  it('take effect on the next request: a member made admin gains the webhooks scopes, and loses them again', async () => {
    const { cookie, session } = await newMember('member');
    const token = await tokenOf(cookie);
    expect((await me(token)).key.scopes).not.toContain('webhooks:write');
    expect((await dashboard(`/members/${session.user.id}`, ownerCookie, { method: 'PATCH', json: { role: 'admin' } })).status).toBe(204);
    expect(await me(token)).toMatchObject({ role: 'admin' });
    expect((await me(token)).key.scopes).toContain('webhooks:write');
    expect(SessionSchema.parse(await (await dashboard('/session', cookie)).json()).workspace.role).toBe('admin');
    // An admin manages keys, and a key shows who made it.
    const made = await dashboard('/keys', cookie, { method: 'POST', json: { name: 'by an admin', scopes: ['transfers:read'] } });
    expect(made.status).toBe(201);
    const keys = ApiKeyListSchema.parse(await (await dashboard('/keys', ownerCookie)).json()).keys;
    expect(keys.find((k) => k.name === 'by an admin')?.createdBy).toMatchObject({ email: session.user.email, name: 'New member' });

    expect((await dashboard(`/members/${session.user.id}`, ownerCookie, { method: 'PATCH', json: { role: 'member' } })).status).toBe(204);
    expect((await me(token)).key.scopes).not.toContain('webhooks:write');
    await expectError(await server.fetch('/api/v1/webhooks', { token }), 403, 'insufficient_scope');
  });

  it('let a member see every transfer of the team but change only their own', async () => {
    const alice = await newMember('member');
    const bob = await newMember('member');
    const admin = await newMember('admin');
    const aliceToken = await tokenOf(alice.cookie);
    const created = await server.fetch('/api/v1/transfers', { method: 'POST', token: aliceToken, json: { title: 'Alice’s', files: [{ name: 'a.txt', size: 1 }] } });
    expect(created.status).toBe(201);
    const { id } = CreateTransferResponseSchema.parse(await created.json());

    const bobToken = await tokenOf(bob.cookie);
    expect(TransferSchema.parse(await (await server.fetch(`/api/v1/transfers/${id}`, { token: bobToken })).json()).title).toBe('Alice’s');
    await expectError(await server.fetch(`/api/v1/transfers/${id}`, { method: 'PATCH', token: bobToken, json: { title: 'Bob’s now' } }), 403, 'forbidden', { reason: 'not_your_transfer' });
    await expectError(await server.fetch(`/api/v1/transfers/${id}/revoke`, { method: 'POST', token: bobToken }), 403, 'forbidden', { reason: 'not_your_transfer' });
    await expectError(await server.fetch(`/api/v1/transfers/${id}/files`, { method: 'POST', token: bobToken, json: { files: [{ name: 'b.txt', size: 1 }] } }), 403, 'forbidden');
    await expectError(await server.fetch(`/api/v1/transfers/${id}`, { method: 'DELETE', token: bobToken }), 403, 'forbidden');

    const renamed = await server.fetch(`/api/v1/transfers/${id}`, { method: 'PATCH', token: aliceToken, json: { title: 'Alice’s, renamed' } });
    expect(renamed.status).toBe(200);
    const alicesSender = { kind: 'member', id: alice.session.user.id, name: 'New member', email: alice.email };
    expect(TransferSchema.parse(await renamed.json()).sentBy).toEqual(alicesSender);
    const byAdmin = await server.fetch(`/api/v1/transfers/${id}`, { method: 'PATCH', token: await tokenOf(admin.cookie), json: { title: 'Tidied by an admin' } });
    expect(byAdmin.status).toBe(200);
    // Still Alice's: an admin's change does not make it theirs.
    expect(TransferSchema.parse(await byAdmin.json()).sentBy).toEqual(alicesSender);
  });

  it('show a member the previews of their own transfers only, as they may download only those', async () => {
    const alice = await newMember('member');
    const bob = await newMember('member');
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2a6' } }).png().toBuffer();
    const t = await seedTransfer(server, { workspaceId: team.id, createdBy: alice.session.user.id, files: [{ name: 'a.png', data: png, mimeType: 'image/png' }] });
    await makeDueThumbnails(server.services);
    const previewOf = async (token: string) =>
      TransferSchema.parse(await (await server.fetch(`/api/v1/transfers/${t.transfer.id}?thumbnails=true`, { token })).json()).files[0]!.thumbnailUrl;
    expect(await previewOf(await tokenOf(alice.cookie))).toMatch(/\/thumb\//);
    expect(await previewOf(await tokenOf(bob.cookie))).toBeNull();
    expect(await previewOf(await team.createKey(['transfers:read']))).toMatch(/\/thumb\//);
  });

  it('say who sent each transfer, a member or an API key, and list one sender’s alone', async () => {
    const carol = await newMember('member');
    const carolToken = await tokenOf(carol.cookie);
    const key = await team.createKey(['transfers:write'], 'Nightly export');
    const send = async (token: string, title: string) => {
      const res = await server.fetch('/api/v1/transfers', { method: 'POST', token, json: { title, files: [{ name: 'a.txt', size: 1 }] } });
      return CreateTransferResponseSchema.parse(await res.json()).id;
    };
    const carols = await send(carolToken, 'From Carol');
    const keys = await send(key, 'From the key');
    const list = async (token: string, query: string) => {
      const res = await server.fetch(`/api/v1/transfers?status=draft&limit=500${query}`, { token });
      expect(res.status, await res.clone().text()).toBe(200);
      return TransferListSchema.parse(await res.json()).transfers;
    };
    const everyone = await list(carolToken, '');
    expect(everyone.find((t) => t.id === carols)?.sentBy).toEqual({ kind: 'member', id: carol.session.user.id, name: 'New member', email: carol.email });
    expect(everyone.find((t) => t.id === keys)?.sentBy).toMatchObject({ kind: 'key', name: 'Nightly export', email: null });
    expect((await list(carolToken, '&sentBy=me')).map((t) => t.id)).toEqual([carols]);
    expect((await list(key, '&sentBy=me')).map((t) => t.id)).toEqual([keys]);
    const keyId = everyone.find((t) => t.id === keys)!.sentBy!.id;
    expect((await list(carolToken, `&sentBy=${keyId}`)).map((t) => t.id)).toEqual([keys]);
    expect((await list(key, `&sentBy=${carol.session.user.id}`)).map((t) => t.id)).toEqual([carols]);
    await expectError(await server.fetch('/api/v1/transfers?sentBy=someone', { token: carolToken }), 400, 'invalid_request');
    expect(TransferSchema.parse(await (await server.fetch(`/api/v1/transfers/${keys}`, { token: carolToken })).json()).sentBy).toMatchObject({ kind: 'key', id: keyId });
  });
});

describe('a link from another workspace', () => {
  it('names which of the person’s workspaces holds it, and nothing of one they are not in', async () => {
    const key = await team.createKey(['transfers:write']);
    const created = await server.fetch('/api/v1/transfers', { method: 'POST', token: key, json: { title: 'Elsewhere', files: [{ name: 'a.txt', size: 1 }] } });
    const { id } = CreateTransferResponseSchema.parse(await created.json());
    const member = await newMember('member');
    const holding = await dashboard(`/workspaces/holding/${id}`, member.cookie);
    expect(holding.status).toBe(200);
    expect(((await holding.json()) as { workspace: unknown }).workspace).toEqual({ id: team.id, name: member.session.workspace.name, role: 'member' });
    const outsider = await server.createWorkspace();
    const outsiderCookie = await signIn(server, outsider);
    const refused = await expectError(await dashboard(`/workspaces/holding/${id}`, outsiderCookie), 404, 'not_found');
    const nothing = await expectError(await dashboard('/workspaces/holding/tr_doesNotExist', outsiderCookie), 404, 'not_found');
    expect(refused.message).toBe(nothing.message);
  });
});

describe('collection files', () => {
  it('say who added each one to the workspace, and to nobody on the collection’s page', async () => {
    const adder = await newMember('member');
    const adderToken = await tokenOf(adder.cookie);
    const key = await team.createKey(['collections:write', 'collections:read'], 'Importer');
    const created = await server.fetch('/api/v1/collections', { method: 'POST', token: key, json: { title: 'Shared folder', visibility: 'public' } });
    expect(created.status, await created.clone().text()).toBe(201);
    const { collection } = CollectionResponseSchema.parse(await created.json());
    const add = async (token: string, name: string) => {
      const res = await server.fetch(`/api/v1/collections/${collection.id}/files`, { method: 'POST', token, json: { files: [{ name, size: 1 }] } });
      expect(res.status, await res.clone().text()).toBe(201);
      const { files } = (await res.json()) as { files: { uploadToken: string }[] };
      await tusUpload(Buffer.from('x'), { endpoint: `${server.url}/files/`, token: files[0]!.uploadToken });
    };
    await add(adderToken, 'from-member.txt');
    await add(key, 'from-key.txt');
    const listed = CollectionFilePageSchema.parse(await (await server.fetch(`/api/v1/collections/${collection.id}/files`, { token: key })).json()).files;
    expect(listed.find((f) => f.name === 'from-member.txt')?.addedBy).toEqual({ kind: 'member', id: adder.session.user.id, name: 'New member', email: adder.email });
    expect(listed.find((f) => f.name === 'from-key.txt')?.addedBy).toMatchObject({ kind: 'key', name: 'Importer', email: null });
    expect(collection.url).not.toBeNull();
    const slug = new URL(collection.url!).pathname.split('/').at(-1)!;
    const page = await server.fetch(`/api/public/collections/${slug}/files`);
    expect(page.status).toBe(200);
    const shown = await page.text();
    expect(shown).toContain('from-member.txt');
    expect(shown).not.toContain('addedBy');
    expect(shown).not.toContain(adder.email);
  });
});

describe('mail about a transfer', () => {
  it('goes to the member who sent it; a key’s goes to the owner and admins', async () => {
    const sender = await newMember('member');
    const bystander = await newMember('member');
    const admin = await newMember('admin');
    // The mails of one download go out in no particular order: wait for all that are expected.
    const downloadMailsTo = async (createdBy: string | undefined, expected: string[]) => {
      const before = sent.length;
      const t = await seedTransfer(server, { workspaceId: team.id, createdBy, title: createdBy ? 'A member’s' : 'A key’s', files: [{ name: 'a.txt', data: Buffer.from('a') }] });
      const visit = await startSession(server, t.transfer.slug);
      await download(server, visit.files[0]!.url);
      const mailed = () => sent.slice(before).filter((m) => m.tag === 'transfer.downloaded').map((m) => m.to);
      await expect.poll(mailed).toEqual(expect.arrayContaining(expected));
      return mailed();
    };
    expect(await downloadMailsTo(sender.session.user.id, [sender.email])).toEqual([sender.email]);
    const keys = await downloadMailsTo(undefined, [team.email, admin.email]);
    expect(keys).not.toContain(sender.email);
    expect(keys).not.toContain(bystander.email);
  });
});

describe('leaving, removal and ownership', () => {
  it('end a removed member’s session and tokens on their next request; what they made stays', async () => {
    const gone = await newMember('admin');
    const token = await tokenOf(gone.cookie);
    const created = await server.fetch('/api/v1/transfers', { method: 'POST', token, json: { title: 'Left behind', files: [{ name: 'a.txt', size: 1 }] } });
    const { id } = CreateTransferResponseSchema.parse(await created.json());
    expect((await dashboard(`/members/${gone.session.user.id}`, ownerCookie, { method: 'DELETE' })).status).toBe(204);

    await expectError(await server.fetch('/api/v1/me', { token }), 401, 'unauthorized');
    await expectError(await dashboard('/session', gone.cookie), 401, 'unauthorized');
    const ownerToken = await tokenOf(ownerCookie);
    expect((await server.fetch(`/api/v1/transfers/${id}`, { token: ownerToken })).status).toBe(200);
    // In no workspace now, they cannot sign in, and are told why once their password is right.
    await expectError(await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email: gone.email, password: 'not it at all' } }), 401, 'unauthorized');
    await expectError(await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email: gone.email, password } }), 403, 'forbidden', { reason: 'no_workspace' });
    // Invited again, they join with their password and start afresh: the old session and token stay dead.
    await invite(ownerCookie, gone.email, 'member');
    const joinToken = invitationToken(gone.email);
    await expectError(await server.fetch('/api/dashboard/join/signin', { method: 'POST', json: { token: joinToken, password: 'not it at all' } }), 401, 'unauthorized');
    const back = await server.fetch('/api/dashboard/join/signin', { method: 'POST', json: { token: joinToken, password } });
    expect(back.status, await back.clone().text()).toBe(200);
    expect(SessionSchema.parse(await back.json()).workspace).toMatchObject({ id: team.id, role: 'member' });
    await expectError(await server.fetch('/api/v1/me', { token }), 401, 'unauthorized');
    await expectError(await dashboard('/session', gone.cookie), 401, 'unauthorized');
  });

  it('let a member leave, but never the owner, who hands ownership over first', async () => {
    const leaving = await newMember('member');
    expect((await dashboard(`/members/${leaving.session.user.id}`, leaving.cookie, { method: 'DELETE' })).status).toBe(204);
    await expectError(await dashboard('/session', leaving.cookie), 401, 'unauthorized');

    const heir = await newMember('admin');
    await expectError(await dashboard(`/members/${team.userId}`, ownerCookie, { method: 'DELETE' }), 409, 'conflict', { reason: 'owner' });
    await expectError(await dashboard(`/members/${team.userId}`, heir.cookie, { method: 'DELETE' }), 409, 'conflict', { reason: 'owner' });
    await expectError(await dashboard(`/members/${team.userId}`, heir.cookie, { method: 'PATCH', json: { role: 'member' } }), 409, 'conflict', { reason: 'owner' });
    await expectError(await dashboard('/members/ownership', heir.cookie, { method: 'POST', json: { userId: heir.session.user.id } }), 403, 'forbidden', { reason: 'role_required' });

    const handed = await dashboard('/members/ownership', ownerCookie, { method: 'POST', json: { userId: heir.session.user.id } });
    expect(handed.status).toBe(200);
    expect(SessionSchema.parse(await handed.json()).workspace.role).toBe('admin');
    const roles = MemberListSchema.parse(await (await dashboard('/members', heir.cookie)).json()).members;
    expect(roles.filter((m) => m.role === 'owner').map((m) => m.id)).toEqual([heir.session.user.id]);
    expect(roles.find((m) => m.id === team.userId)?.role).toBe('admin');
    // And back, so the other tests keep their owner.
    expect((await dashboard('/members/ownership', heir.cookie, { method: 'POST', json: { userId: team.userId } })).status).toBe(200);
  });
});

describe('sign-in', () => {
  it('opens the workspace a person made, while they are in it', async () => {
    const elsewhere = await server.createWorkspace();
    await invite(ownerCookie, elsewhere.email, 'member');
    const cookie = await signIn(server, elsewhere);
    await dashboard('/join', cookie, { method: 'POST', json: { token: invitationToken(elsewhere.email) } });
    const again = await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email: elsewhere.email, password: elsewhere.password } });
    expect(SessionSchema.parse(await again.json()).workspace.id).toBe(elsewhere.id);
  });
});
