import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminPersonSchema, AdminWorkspaceSchema, SessionSchema, SetupStateSchema } from '../../contract/dashboard.js';
import { MeSchema } from '../../contract/me.js';
import type { OutgoingMessage } from '../mail/message.js';
import { seedTransfer, startSession as startVisit } from '../test/transfers.js';
import { expectError, sessionCookieOf, startTestServer, type TestServer } from '../test/harness.js';

/**
 * The operator of a server: the first account is theirs; SIGNUP and DEFAULT_PLAN decide who may
 * sign up and on which plan; the Admin API changes plans, disables workspaces and invites people;
 * and anyone resets a forgotten password by mail.
 */

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function serverWith(env: Record<string, string> = {}) {
  const server = await startTestServer(env);
  servers.push(server);
  const sent: OutgoingMessage[] = [];
  const send = server.services.mailer.send.bind(server.services.mailer);
  server.services.mailer.send = async (message) => {
    sent.push(message);
    return send(message);
  };
  return { server, sent };
}

const newEmail = (who = 'someone') => `${who}-${randomUUID().slice(0, 8)}@example.test`;
const password = 'correct horse battery';

async function signUp(server: TestServer, email: string, extra: Record<string, string> = {}) {
  return server.fetch('/api/dashboard/signup', { method: 'POST', json: { email, password, workspaceName: 'Acme', ...extra } });
}

/** The link a message carries, with the token query parameter it names. */
function tokenIn(message: OutgoingMessage, param: string): string {
  const match = message.text.match(new RegExp(`[?&]${param}=([A-Za-z0-9]+)`));
  expect(match, `a ${param} link in "${message.subject}"`).not.toBeNull();
  return match![1]!;
}

describe('sign-up policy', () => {
  it('starts the operator\'s own (first) workspace on the paid plan with no end date, and later sign-ups on DEFAULT_PLAN', async () => {
    const { server } = await serverWith();
    const first = await signUp(server, newEmail('operator'));
    expect(first.status).toBe(201);
    const operator = SessionSchema.parse(await first.json());
    expect(operator.user.isOperator).toBe(true);
    expect(operator.workspace).toMatchObject({ plan: 'paid', planUntil: null });
    // And so does the API: a dashboard token of the operator's workspace is on the paid plan.
    const cookie = sessionCookieOf(first);
    const { accessToken } = (await (await server.fetch('/api/dashboard/token', { method: 'POST', headers: { cookie } })).json()) as { accessToken: string };
    expect(MeSchema.parse(await (await server.fetch('/api/v1/me', { token: accessToken })).json()).plan).toMatchObject({ name: 'paid', until: null, billing: 'on' });

    const second = SessionSchema.parse(await (await signUp(server, newEmail('member'))).json());
    expect(second.user.isOperator).toBe(false);
    expect(second.workspace.plan).toBe('free');
  });

  it('makes the first account the operator\'s and lets it sign up even when sign-up is closed', async () => {
    const { server } = await serverWith({ SIGNUP: 'closed', DEFAULT_PLAN: 'paid' });
    expect(SetupStateSchema.parse(await (await server.fetch('/api/dashboard/setup')).json())).toEqual({ needsFirstWorkspace: true, signup: 'closed', invite: null });
    const first = await signUp(server, newEmail('operator'));
    expect(first.status).toBe(201);
    const session = SessionSchema.parse(await first.json());
    expect(session.user.isOperator).toBe(true);
    expect(session.workspace.plan).toBe('paid');

    const stranger = await signUp(server, newEmail('stranger'));
    const error = await expectError(stranger, 403, 'forbidden', { reason: 'signup_closed' });
    expect(error.message).toContain('closed');
  });

  it('with SIGNUP=invite, admits only an invited address, once, while its invitation lasts', async () => {
    const { server, sent } = await serverWith({ SIGNUP: 'invite' });
    const operatorCookie = sessionCookieOf(await signUp(server, newEmail('operator')));
    const invitee = newEmail('invitee');
    await expectError(await signUp(server, invitee), 403, 'forbidden', { reason: 'invite_required' });

    const invited = await server.fetch('/api/dashboard/admin/invites', { method: 'POST', headers: { cookie: operatorCookie }, json: { email: invitee.toUpperCase() } });
    expect(invited.status).toBe(201);
    const mail = sent.find((m) => m.tag === 'signup.invite')!;
    expect(mail.to).toBe(invitee);
    const token = tokenIn(mail, 'invite');
    expect(SetupStateSchema.parse(await (await server.fetch(`/api/dashboard/setup?invite=${token}`)).json()).invite).toEqual({ email: invitee });

    // Another address with this token, or no token: refused. The invited address: admitted, on the free plan, not operator.
    await expectError(await signUp(server, newEmail('other'), { invite: token }), 403, 'forbidden', { reason: 'invite_required' });
    const admitted = await signUp(server, invitee, { invite: token });
    expect(admitted.status).toBe(201);
    expect(SessionSchema.parse(await admitted.json())).toMatchObject({ user: { isOperator: false }, workspace: { plan: 'free' } });
    // Used up.
    expect(SetupStateSchema.parse(await (await server.fetch(`/api/dashboard/setup?invite=${token}`)).json()).invite).toBeNull();
    await expectError(await signUp(server, newEmail('late'), { invite: token }), 403, 'forbidden', { reason: 'invite_required' });

    // An invitation expires after 7 days.
    const later = newEmail('later');
    await server.fetch('/api/dashboard/admin/invites', { method: 'POST', headers: { cookie: operatorCookie }, json: { email: later } });
    const lateToken = tokenIn(sent.filter((m) => m.tag === 'signup.invite').at(-1)!, 'invite');
    server.clock.advance(7 * 86_400_000 + 1000);
    await expectError(await signUp(server, later, { invite: lateToken }), 403, 'forbidden', { reason: 'invite_required' });
  });
});

describe('the Admin API', () => {
  it('is the operator\'s alone', async () => {
    const { server } = await serverWith();
    await signUp(server, newEmail('operator'));
    const member = sessionCookieOf(await signUp(server, newEmail('member')));
    await expectError(await server.fetch('/api/dashboard/admin/workspaces', { headers: { cookie: member } }), 403);
    await expectError(await server.fetch('/api/dashboard/admin/invites', { method: 'POST', headers: { cookie: member }, json: { email: newEmail() } }), 403);
    expect((await server.fetch('/api/dashboard/admin/workspaces')).status).toBe(401);
  });

  it('lists workspaces with owner, plan and storage, changes a plan, and disables a workspace until it is enabled again', async () => {
    const { server } = await serverWith();
    const operator = sessionCookieOf(await signUp(server, newEmail('operator')));
    const memberEmail = newEmail('member');
    const memberSignUp = await signUp(server, memberEmail);
    const member = sessionCookieOf(memberSignUp);
    const memberWs = SessionSchema.parse(await memberSignUp.json()).workspace.id;
    const t = await seedTransfer(server, { workspaceId: memberWs, files: [{ name: 'a.bin', data: Buffer.alloc(1500) }] });
    const memberKey = await (await server.fetch('/api/dashboard/keys', { method: 'POST', headers: { cookie: member }, json: { name: 'ci', scopes: ['contacts:read'] } })).json() as { secret: string };

    const list = async () => ((await (await server.fetch('/api/dashboard/admin/workspaces', { headers: { cookie: operator } })).json()) as { workspaces: unknown[] }).workspaces.map((w) => AdminWorkspaceSchema.parse(w));
    const row = (await list()).find((w) => w.id === memberWs)!;
    expect(row).toMatchObject({ ownerEmail: memberEmail, plan: 'free', disabled: false, transferCount: 1, storageBytes: 1500, isOwn: false });
    expect((await list()).find((w) => w.isOwn)?.ownerEmail).toContain('operator-');

    const paid = await server.fetch(`/api/dashboard/admin/workspaces/${memberWs}`, { method: 'PATCH', headers: { cookie: operator }, json: { plan: 'paid' } });
    expect(AdminWorkspaceSchema.parse(((await paid.json()) as { workspace: unknown }).workspace).plan).toBe('paid');

    // Signed download links handed out before it is disabled.
    const issued = await startVisit(server, t.transfer.slug);
    const signed = [issued.files[0]!.url, issued.zip!.url].map((u) => new URL(u)).map((u) => u.pathname + u.search);

    const disabled = await server.fetch(`/api/dashboard/admin/workspaces/${memberWs}`, { method: 'PATCH', headers: { cookie: operator }, json: { disabled: true } });
    expect(disabled.status).toBe(200);
    // Its session, sign-in, key and links, and the signed links already handed out, stop.
    for (const link of signed) await expectError(await server.fetch(link), 410, 'link_unavailable', { reason: 'suspended' });
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie: member } })).status).toBe(401);
    await expectError(await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email: memberEmail, password } }), 403, 'forbidden', { reason: 'workspace_disabled' });
    await expectError(await server.fetch('/api/v1/me', { token: memberKey.secret }), 403, 'forbidden', { reason: 'workspace_disabled' });
    await expectError(await server.fetch(`/api/public/transfers/${t.transfer.slug}`), 410, 'link_unavailable', { reason: 'suspended' });

    const enabled = await server.fetch(`/api/dashboard/admin/workspaces/${memberWs}`, { method: 'PATCH', headers: { cookie: operator }, json: { disabled: false } });
    expect(enabled.status).toBe(200);
    expect((await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email: memberEmail, password } })).status).toBe(200);
    expect((await server.fetch('/api/v1/me', { token: memberKey.secret })).status).toBe(200);
    const visit = await startVisit(server, t.transfer.slug);
    expect(visit.files).toHaveLength(1);

    // Not its own, and not one that does not exist.
    const own = (await list()).find((w) => w.isOwn)!;
    await expectError(await server.fetch(`/api/dashboard/admin/workspaces/${own.id}`, { method: 'PATCH', headers: { cookie: operator }, json: { disabled: true } }), 409, 'conflict', { reason: 'own_workspace' });
    expect((await server.fetch('/api/dashboard/admin/workspaces/ws_nope', { method: 'PATCH', headers: { cookie: operator }, json: { plan: 'paid' } })).status).toBe(404);
  });
});

describe('the Admin API: people', () => {
  it('lists every person with their workspaces and roles, and disables one everywhere until enabled again', async () => {
    const { server, sent } = await serverWith({ FREE_MAX_MEMBERS: '0' });
    const operatorEmail = newEmail('operator');
    const operator = sessionCookieOf(await signUp(server, operatorEmail));
    const personEmail = newEmail('person');
    const own = await signUp(server, personEmail, { workspaceName: 'Own shop' });
    const person = sessionCookieOf(own);
    // The person also joins the operator's workspace as a member.
    expect((await server.fetch('/api/dashboard/members/invitations', { method: 'POST', headers: { cookie: operator }, json: { email: personEmail, role: 'member' } })).status).toBe(201);
    const token = tokenIn(sent.filter((m) => m.tag === 'workspace.invitation').at(-1)!, 'token');
    const joined = await server.fetch('/api/dashboard/join/signin', { method: 'POST', json: { token, password } });
    expect(joined.status).toBe(200);
    const inTeam = sessionCookieOf(joined);
    const minted = (await (await server.fetch('/api/dashboard/token', { method: 'POST', headers: { cookie: inTeam } })).json()) as { accessToken: string };

    const people = async () => ((await (await server.fetch('/api/dashboard/admin/people', { headers: { cookie: operator } })).json()) as { people: unknown[] }).people.map((p) => AdminPersonSchema.parse(p));
    const listed = (await people()).find((p) => p.email === personEmail)!;
    expect(listed).toMatchObject({ disabled: false, isOperator: false, isYou: false });
    expect(listed.workspaces.map((w) => [w.name, w.role])).toEqual([['Own shop', 'owner'], ['Acme', 'member']]);
    expect((await people()).find((p) => p.email === operatorEmail)).toMatchObject({ isOperator: true, isYou: true });

    // Only the operator sees or changes people.
    await expectError(await server.fetch('/api/dashboard/admin/people', { headers: { cookie: person } }), 403, 'forbidden');
    await expectError(await server.fetch(`/api/dashboard/admin/people/${listed.id}`, { method: 'PATCH', headers: { cookie: person }, json: { disabled: true } }), 403, 'forbidden');

    const disabled = await server.fetch(`/api/dashboard/admin/people/${listed.id}`, { method: 'PATCH', headers: { cookie: operator }, json: { disabled: true } });
    expect(AdminPersonSchema.parse(((await disabled.json()) as { person: unknown }).person).disabled).toBe(true);
    // Every session, in both workspaces, and the token end; signing in is refused.
    for (const cookie of [person, inTeam]) expect((await server.fetch('/api/dashboard/session', { headers: { cookie } })).status).toBe(401);
    await expectError(await server.fetch('/api/v1/me', { token: minted.accessToken }), 401, 'unauthorized');
    await expectError(await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email: personEmail, password } }), 403, 'forbidden', { reason: 'account_disabled' });

    const enabled = await server.fetch(`/api/dashboard/admin/people/${listed.id}`, { method: 'PATCH', headers: { cookie: operator }, json: { disabled: false } });
    expect(enabled.status).toBe(200);
    expect((await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email: personEmail, password } })).status).toBe(200);

    const me = (await people()).find((p) => p.isYou)!;
    await expectError(await server.fetch(`/api/dashboard/admin/people/${me.id}`, { method: 'PATCH', headers: { cookie: operator }, json: { disabled: true } }), 409, 'conflict', { reason: 'own_account' });
    expect((await server.fetch('/api/dashboard/admin/people/usr_nope', { method: 'PATCH', headers: { cookie: operator }, json: { disabled: true } })).status).toBe(404);
  });
});

describe('password reset by mail', () => {
  it('mails a single-use link valid 30 minutes; setting the password signs in and ends the other sessions', async () => {
    const { server, sent } = await serverWith();
    const email = newEmail('forgetful');
    const elsewhere = sessionCookieOf(await signUp(server, email));

    // The same answer for an unknown address, and no mail.
    const unknown = await server.fetch('/api/dashboard/password-reset', { method: 'POST', json: { email: newEmail('nobody') } });
    expect(unknown.status).toBe(202);
    expect(sent.filter((m) => m.tag === 'account.password-reset')).toHaveLength(0);

    expect((await server.fetch('/api/dashboard/password-reset', { method: 'POST', json: { email: email.toUpperCase() } })).status).toBe(202);
    const mail = sent.find((m) => m.tag === 'account.password-reset')!;
    expect(mail.to).toBe(email);
    const token = tokenIn(mail, 'token');

    const done = await server.fetch('/api/dashboard/password-reset/complete', { method: 'POST', json: { token, newPassword: 'a brand new passphrase' } });
    expect(done.status).toBe(200);
    expect(SessionSchema.parse(await done.json()).user.email).toBe(email);
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie: sessionCookieOf(done) } })).status).toBe(200);
    expect((await server.fetch('/api/dashboard/session', { headers: { cookie: elsewhere } })).status).toBe(401);
    expect((await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email, password } })).status).toBe(401);
    expect((await server.fetch('/api/dashboard/signin', { method: 'POST', json: { email, password: 'a brand new passphrase' } })).status).toBe(200);

    // Once only.
    const again = await server.fetch('/api/dashboard/password-reset/complete', { method: 'POST', json: { token, newPassword: 'yet another passphrase' } });
    expect((await expectError(again, 400)).message).toContain('expired or was used');

    // 30 minutes, not 31.
    await server.fetch('/api/dashboard/password-reset', { method: 'POST', json: { email } });
    const late = tokenIn(sent.filter((m) => m.tag === 'account.password-reset').at(-1)!, 'token');
    server.clock.advance(31 * 60_000);
    await expectError(await server.fetch('/api/dashboard/password-reset/complete', { method: 'POST', json: { token: late, newPassword: 'yet another passphrase' } }), 400);
  });

  it('limits how many links one address can ask for', async () => {
    const { server } = await serverWith();
    const email = newEmail('flood');
    await signUp(server, email);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await server.fetch('/api/dashboard/password-reset', { method: 'POST', json: { email } })).status);
    expect(statuses.slice(0, 5)).toEqual([202, 202, 202, 202, 202]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });
});
