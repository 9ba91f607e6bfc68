import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';
import { toolSpecs } from './tools.js';

/**
 * The MCP server at /mcp driven by the SDK's own client against the real server, in both protocol
 * revisions: the tools and their annotations are listed, every read tool is called and its structured
 * output checked against its declared schema, a write goes through the API's own rules (idempotency,
 * scopes), and an API error comes back as a tool error carrying its code.
 */

const revisions = { '2025-11-25': 'legacy', '2026-07-28': { pin: '2026-07-28' } } as const;
type Revision = keyof typeof revisions;

let server: TestServer;
let readToken: string;
let writeToken: string;
beforeAll(async () => {
  server = await startTestServer();
  const ws = await server.createWorkspace({ plan: 'paid' });
  readToken = await ws.createKey(['transfers:read', 'collections:read', 'contacts:read', 'webhooks:read']);
  writeToken = await ws.createKey(['transfers:read', 'contacts:write', 'collections:read', 'webhooks:read']);
});
afterAll(() => server.stop());

async function connect(revision: Revision, token: string | undefined) {
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { versionNegotiation: { mode: revisions[revision] } });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: { token: async () => token } });
  await client.connect(transport);
  return client;
}

const validator = new AjvJsonSchemaValidator();

describe.each(Object.keys(revisions) as Revision[])('MCP over revision %s', (revision) => {
  it('lists every tool with its input and output schemas and annotations', async () => {
    const client = await connect(revision, readToken);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(toolSpecs.map((t) => t.name).sort());
    const list = tools.find((t) => t.name === 'list_transfers')!;
    expect(list.annotations).toMatchObject({ readOnlyHint: true });
    expect(list.inputSchema.properties).toHaveProperty('limit');
    expect((list.inputSchema.properties as Record<string, { type?: string }>).limit?.type).toBe('integer');
    expect(list.outputSchema?.properties).toHaveProperty('transfers');
    expect(tools.find((t) => t.name === 'revoke_transfer')!.annotations).toMatchObject({ destructiveHint: true });
    await client.close();
  });

  it('calls each read tool, with structured output matching its declared schema', async () => {
    const client = await connect(revision, readToken);
    const { tools } = await client.listTools();
    for (const name of ['get_account', 'list_transfers', 'list_collections', 'list_contacts', 'list_webhooks']) {
      const result = await client.callTool({ name, arguments: {} });
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      const schema = tools.find((t) => t.name === name)!.outputSchema!;
      const check = validator.getValidator(schema as never)(result.structuredContent);
      expect(check.valid, `${name}: ${check.errorMessage}`).toBe(true);
    }
    await client.close();
  });

  it('runs writes through the API: an idempotency key replays, a missing scope and a bad argument come back as tool errors with the API code', async () => {
    const writer = await connect(revision, writeToken);
    const key = `contact-${revision}`;
    const email = `ada-${revision.replace(/\W/g, '')}@example.test`;
    const first = await writer.callTool({ name: 'create_contact', arguments: { email, firstName: 'Ada', idempotencyKey: key } });
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    const again = await writer.callTool({ name: 'create_contact', arguments: { email, firstName: 'Ada', idempotencyKey: key } });
    expect((again.structuredContent as { contact: { id: string } }).contact.id).toBe((first.structuredContent as { contact: { id: string } }).contact.id);

    const bad = await writer.callTool({ name: 'list_transfers', arguments: { limit: 0 } });
    expect(bad.isError).toBe(true);
    expect((bad.structuredContent as { error: { code: string } }).error.code).toBe('invalid_request');
    await writer.close();

    const reader = await connect(revision, readToken);
    const refused = await reader.callTool({ name: 'create_contact', arguments: { email: 'grace@example.test' } });
    expect(refused.isError).toBe(true);
    expect((refused.structuredContent as { error: { code: string } }).error.code).toBe('insufficient_scope');
    expect(JSON.stringify(refused.content)).toContain('insufficient_scope');
    await reader.close();
  });
});

describe('MCP authentication', () => {
  it('answers 401 with the resource metadata address without a credential, and the metadata names the authorization server', async () => {
    const res = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"$/);
    const bad = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk_live_nope' }, body: '{}' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await expect(connect('2026-07-28', undefined)).rejects.toThrow();
  });
});
