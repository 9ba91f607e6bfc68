import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionSchema } from '../../contract/dashboard.js';
import { MemberInvitationSchema, WorkspaceListSchema } from '../../contract/members.js';
import type { OutgoingMessage } from '../mail/message.js';
import { seedTransfer, startSession } from '../test/transfers.js';
import { expectError, recordMail, sessionCookieOf, signIn, startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';

/**
 * Deleting a workspace through HTTP (docs/teams.md): only its owner, only with its name typed again;
 * everything in it gone at once, links and stored bytes included; members who belong elsewhere keep
 * their account and carry on there, an account left with no workspace is deleted (its address free
 * to sign up again), and the server's operator is never left without one.
 */

let server: TestServer;
let sent: OutgoingMessage[];
let operator: TestWorkspace;

beforeAll(async () => {
  server = await startTestServer();
  sent = recordMail(server);
  // The server's first account is its operator's.
  operator = await server.createWorkspace();
});
afterAll(() => server.stop());

const password = 'correct horse battery';
const newEmail = (who: string) => `${who}-${randomUUID().slice(0, 8)}@example.test`;
const dashboard = (path: string, cookie: string, init: { method?: string; json?: unknown } = {}) => server.fetch(`/api/dashboard${path}`, { ...init, headers: { cookie } });
const deleteCurrent = (cookie: string, name: string) => dashboard('/workspaces/current', cookie, { method: 'DELETE', json: { name } });

async function workspaceName(cookie: string) {
  return SessionSchema.parse(await (await dashboard('/session', cookie)).json()).workspace.name;
}

/** Invites the address with the role and has it accept: as a new person (signing up) or by signing in to its account. */
async function join(ownerCookie: string, person: { email: string; password?: string }, role: 'admin' | 'member') {
  const invited = await dashboard('/members/invitations', ownerCookie, { method: 'POST', json: { email: person.email, role } });
  expect(invited.status, await invited.clone().text()).toBe(201);
  MemberInvitationSchema.parse(await invited.json());
  const mail = sent.filter((m) => m.tag === 'workspace.invitation' && m.to === person.email).at(-1)!;
  const token = mail.text.match(/\/join\?token=([A-Za-z0-9]+)/)![1]!;
  const res = person.password
    ? await server.fetch('/api/dashboard/join/signin', { method: 'POST', json: { token, password: person.password } })
    : await server.fetch('/api/dashboard/join/signup', { method: 'POST', json: { token, name: 'New person', password } });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return { cookie: sessionCookieOf(res), userId: SessionSchema.parse(await res.json()).user.id };
}

describe('deleting a workspace', () => {
  it('is its owner’s alone, and only with its name typed again: nothing is touched otherwise', async () => {
    const team = await server.createWorkspace({ plan: 'paid' });
    const ownerCookie = await signIn(server, team);
    const admin = await join(ownerCookie, { email: newEmail('admin') }, 'admin');
    const member = await join(ownerCookie, { email: newEmail('member') }, 'member');
    const { transfer } = await seedTransfer(server, { workspaceId: team.id, files: [{ name: 'kept.txt', data: Buffer.from('still here') }] });
    const name = await workspaceName(ownerCookie);

    await expectError(await deleteCurrent(member.cookie, name), 403, 'forbidden', { reason: 'role_required', role: 'owner' });
    await expectError(await deleteCurrent(admin.cookie, name), 403, 'forbidden', { reason: 'role_required', role: 'owner' });
    const mistyped = await expectError(await deleteCurrent(ownerCookie, `${name}x`), 400, 'invalid_request');
    expect(mistyped.details).toMatchObject({ fields: [{ path: 'name' }] });
    // An API key cannot reach the dashboard at all.
    const key = await team.createKey(['transfers:read']);
    expect((await server.fetch('/api/dashboard/workspaces/current', { method: 'DELETE', token: key, json: { name } })).status).toBe(401);

    expect(SessionSchema.parse(await (await dashboard('/session', ownerCookie)).json()).workspace.id).toBe(team.id);
    await startSession(server, transfer.slug);
    expect(sent.filter((m) => m.tag === 'workspace.deleted')).toEqual([]);
  });

  it('takes everything in it at once, links and stored bytes included; who belongs elsewhere carries on there, the others’ accounts go', async () => {
    const team = await server.createWorkspace({ plan: 'paid' });
    const ownerCookie = await signIn(server, team);
    // An admin with a workspace of their own, signed in to this one.
    const elsewhere = await server.createWorkspace();
    const admin = await join(ownerCookie, elsewhere, 'admin');
    const newcomer = { email: newEmail('newcomer') };
    const member = await join(ownerCookie, newcomer, 'member');
    const data = randomBytes(4096);
    const { transfer, files } = await seedTransfer(server, { workspaceId: team.id, createdBy: team.userId, files: [{ name: 'report.pdf', data }] });
    const storageKey = files[0]!.storageKey;
    expect(await server.services.storage.size(storageKey)).toBe(data.length);
    const key = await team.createKey(['transfers:read']);
    const name = await workspaceName(ownerCookie);

    const res = await deleteCurrent(ownerCookie, ` ${name} `);
    expect(res.status, await res.clone().text()).toBe(200);
    // The owner has no other workspace: their session ended with their account.
    expect(await res.json()).toEqual({ session: null });
    expect(res.headers.getSetCookie().some((c) => /^parcel_session=;/.test(c) || /parcel_session=.*Max-Age=0/i.test(c))).toBe(true);

    // Every link and credential of the workspace stops at once.
    await expectError(await server.fetch(`/api/public/transfers/${transfer.slug}/sessions`, { method: 'POST', json: {} }), 404);
    expect((await server.fetch('/api/v1/transfers', { token: key })).status).toBe(401);
    expect((await dashboard('/session', ownerCookie)).status).toBe(401);
    expect((await dashboard('/session', member.cookie)).status).toBe(401);
    // The stored bytes follow the rows.
    await vi.waitFor(async () => expect(await server.services.storage.size(storageKey)).toBeNull(), { timeout: 5000, interval: 20 });

    // The admin still works in their own workspace, in the same session.
    const moved = SessionSchema.parse(await (await dashboard('/session', admin.cookie)).json());
    expect(moved.workspace).toMatchObject({ id: elsewhere.id, role: 'owner' });
    expect(WorkspaceListSchema.parse(await (await dashboard('/workspaces', admin.cookie)).json()).workspaces.map((w) => w.id)).toEqual([elsewhere.id]);

    // The owner's and the newcomer's accounts went with it: their addresses sign up anew.
    await expectError(await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email: team.email, password: team.password } }), 401);
    await expectError(await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email: newcomer.email, password } }), 401);
    const again = await server.fetch('/api/dashboard/signup', { method: 'POST', json: { email: team.email, password, workspaceName: 'A fresh start' } });
    expect(again.status, await again.clone().text()).toBe(201);

    // Everyone was told, each in the words that fit them.
    const mails = sent.filter((m) => m.tag === 'workspace.deleted');
    expect(mails.map((m) => m.to).sort()).toEqual([team.email, elsewhere.email, newcomer.email].sort());
    for (const m of mails) expect(m.subject).toBe(`The workspace “${name}” was deleted`);
    expect(mails.find((m) => m.to === elsewhere.email)!.text).toContain('Your account stays');
    expect(mails.find((m) => m.to === newcomer.email)!.text).toContain('Your Parcel account was deleted with it');
    expect(mails.find((m) => m.to === team.email)!.text).toContain(team.email);
  });

  it('moves the owner’s session to their next workspace when they have one', async () => {
    const home = await server.createWorkspace({ plan: 'paid' });
    const homeCookie = await signIn(server, home);
    const second = await server.createWorkspace({ plan: 'paid' });
    const secondCookie = await signIn(server, second);
    // The owner of `second` joins `home`, then gets `second`'s deletion from a session working in it.
    await join(homeCookie, second, 'member');
    const res = await deleteCurrent(secondCookie, await workspaceName(secondCookie));
    expect(res.status, await res.clone().text()).toBe(200);
    const { session } = (await res.json()) as { session: unknown };
    expect(SessionSchema.parse(session).workspace).toMatchObject({ id: home.id, role: 'member' });
    expect(SessionSchema.parse(await (await dashboard('/session', secondCookie)).json()).workspace.id).toBe(home.id);
  });

  it('is refused when it is the last workspace of the server’s operator, who needs one to sign in', async () => {
    const cookie = await signIn(server, operator);
    const refused = await expectError(await deleteCurrent(cookie, await workspaceName(cookie)), 409, 'conflict', { reason: 'operators_last_workspace' });
    expect(refused.message).toMatch(/^You run this server and need a workspace to sign in/);
    expect((await dashboard('/session', cookie)).status).toBe(200);
  });
});
