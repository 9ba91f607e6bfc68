import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema } from '../../../contract/errors.js';
import { scopes, scopeSatisfies, type Scope } from '../../../contract/scopes.js';
// Building the v1 routes fills the registry of operations; importing the app module builds them.
import '../../api/v1/index.js';
import { v1Operations, type V1Operation } from '../../api/v1/route.js';
import { keyHint, newApiKey, newId, sha256 } from '../../core/secrets.js';
import { apiKeys } from '../../db/schema/index.js';
import { startTestServer, type TestServer } from '../../test/harness.js';

/**
 * The spec's rule, written out independently of the implementation: an operation open to any
 * scope takes every scope; otherwise the exact scope, or the `:write` of the same resource for a
 * `:read`, never another resource.
 */
function specAllows(granted: Scope, op: V1Operation): boolean {
  if (op.scope === 'any') return true;
  if (granted === op.scope) return true;
  const [resource, action] = op.scope.split(':');
  return action === 'read' && granted === `${resource}:write`;
}

/** A request that reaches the scope check: path parameters filled with an id that exists nowhere. */
function requestFor(op: V1Operation, token: string) {
  const path = `/api/v1${op.path.replace(/\{[^}]+\}|:[A-Za-z_]\w*/g, 'nonexistent_0000')}`;
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(op.method);
  return server.fetch(path, { method: op.method, token, ...(hasBody ? { json: {} } : {}) });
}

const operations = [...new Map(v1Operations.map((op) => [`${op.method} ${op.path}`, op])).values()];
const label = (op: V1Operation) => `${op.method} ${op.path}`;
/** [operation, granted scope, required rule, the operation] for every operation and every scope. */
const matrix = operations.flatMap((op) => scopes.map((scope) => [label(op), scope, op.scope, op] as const));
const refused = matrix.filter(([, granted, , op]) => !specAllows(granted, op));
const allowed = matrix.filter(([, granted, , op]) => specAllows(granted, op));

let server: TestServer;
/** One key per scope, each holding only that scope, on a paid workspace so that no plan gate interferes. */
const keyWith = new Map<Scope, string>();
let keyWithNoScopes: string;

beforeAll(async () => {
  server = await startTestServer();
  const ws = await server.createWorkspace({ plan: 'paid' });
  for (const scope of scopes) keyWith.set(scope, await ws.createKey([scope], `only ${scope}`));
  // The API refuses to create a key without scopes, so this one goes straight into the table.
  keyWithNoScopes = newApiKey();
  await server.services.db.insert(apiKeys).values({
    id: newId('key'),
    workspaceId: ws.id,
    name: 'no scopes',
    scopes: [],
    secretHash: sha256(keyWithNoScopes),
    hint: keyHint(keyWithNoScopes),
    createdAt: server.clock.now(),
  });
});
afterAll(() => server.stop());

describe('the scope check on every v1 operation', () => {
  it('has operations to check', () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  it.each(refused)('%s refuses a key with only %s: 403 insufficient_scope naming %s', async (_, granted, required, op) => {
    const res = await requestFor(op, keyWith.get(granted)!);
    expect(res.status).toBe(403);
    const { error } = ErrorSchema.parse(await res.json());
    expect(error.code).toBe('insufficient_scope');
    expect(error.details.required).toBe(required);
    expect(error.details.granted).toEqual([granted]);
  });

  it.each(allowed)('%s lets a key with only %s past the scope check (%s)', async (_, granted, __, op) => {
    const res = await requestFor(op, keyWith.get(granted)!);
    expect(res.status, await res.clone().text()).not.toBe(401);
    expect(res.status).not.toBe(403);
    // An empty body or an unknown id may be refused, but never crash the server.
    expect(res.status).toBeLessThan(500);
  });

  it.each(operations.map((op) => [label(op), op] as const))('%s refuses a key with no scopes at all', async (_, op) => {
    const res = await requestFor(op, keyWithNoScopes);
    expect(res.status).toBe(403);
    const { error } = ErrorSchema.parse(await res.json());
    expect(error.code).toBe('insufficient_scope');
    expect(error.details).toMatchObject({ required: op.scope, granted: [] });
  });
});

describe('scopeSatisfies', () => {
  it.each<[string[], Scope, boolean]>([
    [['transfers:read'], 'transfers:read', true],
    [['transfers:write'], 'transfers:write', true],
    [['transfers:write'], 'transfers:read', true],
    [['collections:write'], 'collections:read', true],
    [['webhooks:write'], 'webhooks:read', true],
    [['transfers:read'], 'transfers:write', false],
    [['contacts:read'], 'contacts:write', false],
    [['contacts:write'], 'transfers:read', false],
    [['transfers:write'], 'collections:read', false],
    [['webhooks:write'], 'webhooks:write', true],
    [['contacts:read', 'webhooks:write'], 'webhooks:read', true],
    [['contacts:read', 'webhooks:write'], 'transfers:read', false],
    [[], 'contacts:read', false],
    [['transfers:send'], 'transfers:write', false],
    [['transfers:send'], 'transfers:read', false],
    [['contacts:*'], 'contacts:read', false],
    [['CONTACTS:READ'], 'contacts:read', false],
  ])('granted %j, required %s: %s', (granted, required, expected) => {
    expect(scopeSatisfies(granted, required)).toBe(expected);
  });
});
