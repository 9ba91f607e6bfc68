import { Client, StreamableHTTPClientTransport, type Tool } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CollectionFilePageSchema,
  CollectionListSchema,
  CollectionResponseSchema,
  FolderResponseSchema,
  InvitedGuestsSchema,
} from '../../contract/collections.js';
import { ContactListSchema, ContactResponseSchema } from '../../contract/contacts.js';
import { MeSchema } from '../../contract/me.js';
import { scopes } from '../../contract/scopes.js';
import { CreateTransferResponseSchema, TransferDownloadsSchema, TransferListSchema, TransferSchema } from '../../contract/transfers.js';
import { WebhookDeliveryListSchema, WebhookListSchema, WebhookWithSecretSchema } from '../../contract/webhooks.js';
import { collectionsApi } from '../collections/testing.js';
import { importDueNow } from '../imports/importer.js';
import { serveFile, TestOrigins, type TestOrigin } from '../imports/test-origins.js';
import { listOutbox } from '../mail/file-mailer.js';
import { startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';
import { randomFile } from '../uploads/testing.js';
import { toolSpecs } from './tools.js';

/**
 * The MCP server at /mcp driven by the SDK's own client against the real server, in both protocol
 * revisions: the tools and their annotations are listed; every tool is called on its success path with
 * real arguments (a transfer made from a URL import and sent to a recipient who gets the mail, a
 * collection with a file, a folder and an invited guest, contacts, a webhook with a waiting delivery)
 * and its structured output checked against its declared schema, and the suite fails if a tool was
 * never called; a write goes through the API's own rules (idempotency, scopes), and an API error comes
 * back as a tool error carrying its code.
 */

const revisions = { '2025-11-25': 'legacy', '2026-07-28': { pin: '2026-07-28' } } as const;
type Revision = keyof typeof revisions;

let server: TestServer;
let ws: TestWorkspace;
let readToken: string;
let writeToken: string;
/** A key with every scope: the tools' success paths. */
let allToken: string;
let importOrigin: TestOrigin;
let webhookId: string;
const importedBytes = randomFile(10_000);
const origins = new TestOrigins();

beforeAll(async () => {
  // The import origin and the webhook receiver are on loopback, which only these development settings allow.
  server = await startTestServer({ IMPORTS_ALLOW_INSECURE: '1', WEBHOOKS_ALLOW_INSECURE: '1' });
  ws = await server.createWorkspace({ plan: 'paid' });
  readToken = await ws.createKey(['transfers:read', 'collections:read', 'contacts:read', 'webhooks:read']);
  writeToken = await ws.createKey(['transfers:read', 'contacts:write', 'collections:read', 'webhooks:read']);
  allToken = await ws.createKey(scopes);
  importOrigin = await origins.start(serveFile(importedBytes));
  // Nothing delivers in tests (no worker runs), so what a revoke emits waits in `pending` for list_webhook_deliveries.
  const webhook = { url: 'http://127.0.0.1:9/hook', events: ['transfer.expired'] };
  const created = await server.fetch('/api/v1/webhooks', { method: 'POST', token: allToken, json: webhook });
  expect(created.status).toBe(201);
  webhookId = WebhookWithSecretSchema.parse(await created.json()).webhook.id;
});
afterAll(async () => {
  await origins.closeAll();
  await server?.stop();
});

async function connect(revision: Revision, token: string | undefined) {
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { versionNegotiation: { mode: revisions[revision] } });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: { token: async () => token } });
  await client.connect(transport);
  return client;
}

const validator = new AjvJsonSchemaValidator();
/** The tools each revision called successfully, with output that matched its schema. */
const calledTools = new Map<Revision, Set<string>>(Object.keys(revisions).map((r) => [r as Revision, new Set<string>()]));

interface Session {
  revision: Revision;
  client: Client;
  tools: Tool[];
}

async function open(revision: Revision, token: string): Promise<Session> {
  const client = await connect(revision, token);
  return { revision, client, tools: (await client.listTools()).tools };
}

/**
 * Calls a tool that must succeed, checks its structured output against the output schema the server
 * declared for it, records it as called, and returns the output read with the contract's schema.
 */
async function callOk<T>(session: Session, name: string, args: Record<string, unknown>, contract: { parse(value: unknown): T }): Promise<T> {
  const result = await session.client.callTool({ name, arguments: args });
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  const schema = session.tools.find((t) => t.name === name)?.outputSchema;
  expect(schema, `${name} declares an output schema`).toBeDefined();
  const validate = validator.getValidator(schema as never);
  const check = validate(result.structuredContent);
  expect(check.valid, `${name}: ${check.errorMessage}`).toBe(true);
  // A schema that took anything would prove nothing.
  expect(validate({}).valid, `${name}: its output schema accepts {}`).toBe(false);
  calledTools.get(session.revision)!.add(name);
  return contract.parse(result.structuredContent);
}

const mailsTo = async (to: string) => (await listOutbox(server.services.config.DATA_DIR, ws.id)).filter((m) => m.to === to);

describe.each(Object.keys(revisions) as Revision[])('MCP over revision %s', (revision) => {
  // Names and idempotency keys of this revision's writes: both revisions share one workspace.
  const tag = revision.replace(/\W/g, '');

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

  it('makes a transfer from a URL import, sends it to a recipient who is mailed, reads, lists, changes and revokes it', async () => {
    const mcp = await open(revision, allToken);
    const account = await callOk(mcp, 'get_account', {}, MeSchema);
    expect(account.key).toMatchObject({ via: 'key', canEmail: true });

    const recipient = `recipient-${tag}@example.test`;
    const created = await callOk(
      mcp,
      'create_transfer',
      {
        title: `Report ${tag}`,
        imports: [{ url: `${importOrigin.url}/report-${tag}.bin`, size: importedBytes.length }],
        recipients: [recipient],
        idempotencyKey: `create-transfer-${tag}`,
      },
      CreateTransferResponseSchema,
    );
    expect(created.imports).toEqual([expect.objectContaining({ name: `report-${tag}.bin`, size: importedBytes.length, status: 'importing' })]);
    const sent = await callOk(mcp, 'send_transfer', { id: created.id, idempotencyKey: `send-transfer-${tag}` }, TransferSchema);
    // Sent when its import lands: until then the request is recorded, and finalizedAt is still null.
    expect(sent.finalizedAt).toBeNull();
    expect(sent.sendRequestedAt).not.toBeNull();
    // The recipient is mailed once the import lands (the importer runs here on demand).
    expect(await mailsTo(recipient)).toHaveLength(0);
    await importDueNow(server.services);
    expect(await mailsTo(recipient)).toHaveLength(1);

    const read = await callOk(mcp, 'get_transfer', { id: created.id }, TransferSchema);
    expect(read).toMatchObject({ title: `Report ${tag}`, status: 'active', recipients: [recipient], fileCount: 1 });
    expect(read.finalizedAt).not.toBeNull();
    expect(read.files.map((f) => [f.name, f.sizeBytes, f.state])).toEqual([[`report-${tag}.bin`, importedBytes.length, 'complete']]);
    const receipts = await callOk(mcp, 'list_transfer_downloads', { id: created.id }, TransferDownloadsSchema);
    expect(receipts.recipients).toEqual([expect.objectContaining({ email: recipient, notifiedAt: expect.any(String), downloaded: false })]);
    expect(receipts.totalDownloads).toBe(0);
    const listed = await callOk(mcp, 'list_transfers', { limit: 100 }, TransferListSchema);
    expect(listed.transfers.map((t) => t.id)).toContain(created.id);

    const updated = await callOk(mcp, 'update_transfer', { id: created.id, maxDownloads: 3 }, TransferSchema);
    expect(updated.maxDownloads).toBe(3);
    const revoked = await callOk(mcp, 'revoke_transfer', { id: created.id, idempotencyKey: `revoke-transfer-${tag}` }, TransferSchema);
    expect(revoked.status).toBe('removed');
    expect((await callOk(mcp, 'get_transfer', { id: created.id }, TransferSchema)).status).toBe('removed');
    await mcp.client.close();
  });

  it('reads a collection and its files, makes a folder in it and invites a guest, who is mailed', async () => {
    const collections = collectionsApi(server, allToken);
    const collection = await collections.create({ title: `Lookbook ${tag}` });
    await collections.upload(collection.id, [{ name: 'cover.bin', bytes: randomFile(2_000) }]);
    const mcp = await open(revision, allToken);

    const listed = await callOk(mcp, 'list_collections', {}, CollectionListSchema);
    expect(listed.collections.map((c) => c.id)).toContain(collection.id);
    const read = await callOk(mcp, 'get_collection', { id: collection.id }, CollectionResponseSchema);
    expect(read.collection).toMatchObject({ id: collection.id, title: `Lookbook ${tag}` });
    const folder = await callOk(mcp, 'create_collection_folder', { id: collection.id, name: 'Day 1', idempotencyKey: `folder-${tag}` }, FolderResponseSchema);
    expect(folder.folder).toMatchObject({ name: 'Day 1', path: 'Day 1', depth: 0 });
    const files = await callOk(mcp, 'list_collection_files', { id: collection.id }, CollectionFilePageSchema);
    expect(files.files.map((f) => [f.name, f.state])).toEqual([['cover.bin', 'complete']]);

    const guest = `guest-${tag}@example.test`;
    const invitation = { id: collection.id, emails: [guest.toUpperCase()], idempotencyKey: `invite-${tag}` };
    const invited = await callOk(mcp, 'invite_collection_guests', invitation, InvitedGuestsSchema);
    expect(invited.invited).toEqual([guest]);
    expect(await mailsTo(guest)).toHaveLength(1);
    await mcp.client.close();
  });

  it('creates, replaces and lists contacts', async () => {
    const mcp = await open(revision, allToken);
    const email = `grace-${tag}@example.test`;
    const created = await callOk(mcp, 'create_contact', { email, firstName: 'Grace', company: 'Navy', idempotencyKey: `grace-${tag}` }, ContactResponseSchema);
    const replaced = await callOk(mcp, 'replace_contact', { id: created.contact.id, email, firstName: 'Grace', lastName: 'Hopper' }, ContactResponseSchema);
    // A replacement resets what it leaves out.
    expect(replaced.contact).toMatchObject({ id: created.contact.id, email, firstName: 'Grace', lastName: 'Hopper', company: '' });
    const listed = await callOk(mcp, 'list_contacts', {}, ContactListSchema);
    expect(listed.contacts.find((c) => c.id === created.contact.id)).toMatchObject({ lastName: 'Hopper' });
    await mcp.client.close();
  });

  it('lists the webhooks and the deliveries waiting for one', async () => {
    const mcp = await open(revision, allToken);
    const listed = await callOk(mcp, 'list_webhooks', {}, WebhookListSchema);
    expect(listed.webhooks.map((w) => w.id)).toEqual([webhookId]);
    const deliveries = await callOk(mcp, 'list_webhook_deliveries', { id: webhookId }, WebhookDeliveryListSchema);
    expect(deliveries.attempts).toEqual([]);
    // At least the revoke of this revision's transfer (the test above) waits to be delivered.
    expect(deliveries.pending.length).toBeGreaterThan(0);
    expect(new Set(deliveries.pending.map((d) => d.eventType))).toEqual(new Set(['transfer.expired']));
    await mcp.client.close();
  });

  it('called every tool on its success path, with structured output matching its schema', () => {
    expect([...calledTools.get(revision)!].sort()).toEqual(toolSpecs.map((t) => t.name).sort());
  });

  it('runs writes through the API: an idempotency key replays, a missing scope and a bad argument come back as tool errors with the API code', async () => {
    const writer = await connect(revision, writeToken);
    const key = `contact-${revision}`;
    const email = `ada-${tag}@example.test`;
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
    const bad = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk_live_nope' },
      body: '{}',
    });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await expect(connect('2026-07-28', undefined)).rejects.toThrow();
  });
});
