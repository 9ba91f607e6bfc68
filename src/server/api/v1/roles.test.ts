import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionSchema } from '../../../contract/dashboard.js';
import { ErrorSchema } from '../../../contract/errors.js';
import { CreateTransferResponseSchema } from '../../../contract/transfers.js';
import type { OutgoingMessage } from '../../mail/message.js';
import { recordMail, startTestServerAtPublicUrl, type TestServer } from '../../test/harness.js';
import { exampleOf } from '../../test/route-matrix.js';
import { credentialHeaders, seedWorkspace, type WorkspaceFixture } from '../../test/workspace-fixture.js';
import { v1Operations, type V1Operation } from './route.js';

/**
 * The role matrix (docs/teams.md), generated from the route table as the scope matrix is: every
 * /api/v1 operation, called by an admin and by a member of a workspace holding one of every
 * resource, each with their own dashboard token. What the operation declares (`role` in
 * `v1Route`) is what happens: an owners-and-admins operation refuses the member with 403; an `own`
 * one refuses the member on a transfer an API key sent (403 `not_your_transfer`) and lets them act
 * on their own; everything else is open to both. A new operation is covered without editing this
 * file, or fails it until its path names a kind of resource below.
 */

let server: TestServer;
let team: WorkspaceFixture;
let publicUrl: string;
let sent: OutgoingMessage[];
const tokens: Record<'admin' | 'member', string> = { admin: '', member: '' };
let membersDraft: { id: string; fileId: string };

async function join(role: 'admin' | 'member'): Promise<string> {
  const headers = credentialHeaders.session(team, publicUrl);
  const email = `${role}-${Date.now()}@example.test`;
  const invited = await server.fetch('/api/dashboard/members/invitations', { method: 'POST', headers, json: { email, role } });
  expect(invited.status, await invited.clone().text()).toBe(201);
  const token = sent.filter((m) => m.to === email).at(-1)!.text.match(/\/join\?token=([A-Za-z0-9]+)/)![1]!;
  const joined = await server.fetch('/api/dashboard/join/signup', { method: 'POST', headers: { origin: publicUrl }, json: { token, name: `The ${role}`, password: 'correct horse battery' } });
  expect(joined.status).toBe(201);
  expect(SessionSchema.parse(await joined.clone().json()).workspace.role).toBe(role);
  const cookie = joined.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const minted = await server.fetch('/api/dashboard/token', { method: 'POST', headers: { cookie, origin: publicUrl } });
  return ((await minted.json()) as { accessToken: string }).accessToken;
}

beforeAll(async () => {
  ({ server, publicUrl } = await startTestServerAtPublicUrl({
    WEBHOOKS_ALLOW_INSECURE: '1',
    IMPORTS_ALLOW_INSECURE: '1',
    RATE_LIMIT_KEY_PER_MINUTE: '100000',
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
  }));
  sent = recordMail(server);
  team = await seedWorkspace(server, 'Team');
  tokens.admin = await join('admin');
  tokens.member = await join('member');
  const created = await server.fetch('/api/v1/transfers', { method: 'POST', token: tokens.member, json: { title: 'The member’s own', files: [{ name: 'a.txt', size: 5 }] } });
  expect(created.status).toBe(201);
  const draft = CreateTransferResponseSchema.parse(await created.json());
  membersDraft = { id: draft.id, fileId: draft.files[0]!.id };
}, 120_000);
afterAll(() => server?.stop());

/** The operation's path with the team's resources in it; `transfer` picks whose transfer. */
function pathOf(op: V1Operation, transfer: { id: string; fileId: string }): string {
  const refs: Record<string, Record<string, string>> = {
    transfers: { id: transfer.id, fileId: transfer.fileId },
    collections: { id: team.collection.id, folderId: team.collection.folderId, fileId: team.collection.fileId, guestId: team.collection.guestId, itemId: team.collection.trashedFolderId },
    requests: { id: team.request.id, submissionId: team.request.submissionId },
    contacts: { id: team.contact.id },
    webhooks: { id: team.webhook.id, deliveryId: team.webhook.deliveryId },
    imports: { fileId: team.draft.importFileId },
  };
  const kind = op.path.split('/')[1]!;
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const id = refs[kind]?.[name];
    if (!id) throw new Error(`${op.method} ${op.path}: name the resource {${name}} stands for in roles.test.ts`);
    return id;
  });
}

/** Bodies the schema's example cannot make (a rule across fields), so that the call gets past validation to the role. */
const bodies: Record<string, unknown> = {
  'POST /transfers': { title: 'Made in the matrix', files: [{ name: 'a.txt', size: 1 }] },
  'POST /transfers/{id}/files': { files: [{ name: 'more.txt', size: 1 }] },
  'POST /collections/{id}/files': { files: [{ name: 'more.txt', size: 1 }] },
};

function bodyOf(op: V1Operation): unknown {
  if (!op.request.body) return undefined;
  const body = bodies[`${op.method} ${op.path}`] ?? exampleOf(op.request.body);
  if (!op.request.body.safeParse(body).success) throw new Error(`${op.method} ${op.path}: give a valid body in roles.test.ts`);
  return body;
}

async function call(op: V1Operation, token: string, transfer: { id: string; fileId: string }) {
  const res = await server.fetch(`/api/v1${pathOf(op, transfer)}`, { method: op.method, token, json: bodyOf(op) });
  const body = res.status >= 400 ? ErrorSchema.safeParse(await res.json()) : null;
  return { status: res.status, code: body?.success ? body.data.error.code : null, reason: body?.success ? body.data.error.details?.reason : undefined };
}

// Deleting comes last, so each call finds what it names.
const ordered = [...v1Operations].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
const refused = (r: { status: number }) => r.status === 401 || r.status === 403;

describe('the role matrix, from the route table', () => {
  it('declares a role for every operation, webhooks for owners and admins and each one-transfer operation as own', () => {
    expect(ordered.length).toBeGreaterThan(40);
    expect(ordered.filter((op) => op.path.startsWith('/webhooks')).every((op) => op.role === 'admin')).toBe(true);
    expect(ordered.filter((op) => op.role === 'own').every((op) => op.path.startsWith('/transfers/{id}'))).toBe(true);
  });

  it('refuses a member what is the owner’s and admins’, and a transfer an API key sent', async () => {
    const wrong: string[] = [];
    for (const op of ordered.filter((o) => o.role !== 'member')) {
      const r = await call(op, tokens.member, team.transfer);
      const expected = op.role === 'own' ? r.status === 403 && r.code === 'forbidden' && r.reason === 'not_your_transfer' : r.status === 403;
      if (!expected) wrong.push(`${op.method} ${op.path} (${op.role}): ${r.status} ${r.code} ${String(r.reason)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('lets a member act on their own transfer, and on everything every member may', async () => {
    const wrong: string[] = [];
    for (const op of ordered.filter((o) => o.role !== 'admin')) {
      // Every other operation on a transfer is open to them on any transfer (reading one, listing).
      const r = await call(op, tokens.member, op.role === 'own' ? membersDraft : team.transfer);
      if (refused(r)) wrong.push(`${op.method} ${op.path} (${op.role}): ${r.status} ${r.code} ${String(r.reason)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('lets an admin do everything, on any member’s or key’s transfer', async () => {
    const wrong: string[] = [];
    for (const op of ordered) {
      const r = await call(op, tokens.admin, team.transfer);
      if (refused(r)) wrong.push(`${op.method} ${op.path} (${op.role}): ${r.status} ${r.code} ${String(r.reason)}`);
    }
    expect(wrong).toEqual([]);
  });
});
