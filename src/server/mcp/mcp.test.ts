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
import { CreateTransferResponseSchema, DownloadLinksSchema, TransferDownloadsSchema, TransferListSchema, TransferSchema } from '../../contract/transfers.js';
import { WebhookDeliveryListSchema, WebhookListSchema, WebhookWithSecretSchema } from '../../contract/webhooks.js';
import { collectionsApi } from '../test/collections.js';
import { importDueNow } from '../imports/importer.js';
import { serveFile, TestOrigins, type TestOrigin } from '../test/import-origins.js';
import { listOutbox } from '../mail/file-mailer.js';
import { startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';
import { randomFile, tusUpload } from '../test/uploads.js';
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
    // Files leave as signed URLs (never bytes through the model), and the URL serves the file.
    const links = await callOk(mcp, 'get_transfer_download_links', { id: created.id }, DownloadLinksSchema);
    expect(links.files.map((f) => [f.name, f.sizeBytes])).toEqual([[`report-${tag}.bin`, importedBytes.length]]);
    const file = await fetch(atServer(links.files[0]!.url));
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(importedBytes)).toBe(true);
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
    const links = await callOk(mcp, 'get_collection_download_links', { id: collection.id }, DownloadLinksSchema);
    expect(links.files.map((f) => f.name)).toEqual(['cover.bin']);
    expect((await fetch(atServer(links.zip.url), { method: 'HEAD' })).status).toBe(200);

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

  it('runs writes through the API: an idempotency key replays, and an error of the API comes back as a tool error with its code', async () => {
    const writer = await connect(revision, writeToken);
    const key = `contact-${revision}`;
    const email = `ada-${tag}@example.test`;
    const first = await writer.callTool({ name: 'create_contact', arguments: { email, firstName: 'Ada', idempotencyKey: key } });
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    const again = await writer.callTool({ name: 'create_contact', arguments: { email, firstName: 'Ada', idempotencyKey: key } });
    expect((again.structuredContent as { contact: { id: string } }).contact.id).toBe((first.structuredContent as { contact: { id: string } }).contact.id);

    // The same email again without the key: the API's 409, as text, with no structured content to mismatch the output schema.
    const duplicate = await writer.callTool({ name: 'create_contact', arguments: { email, firstName: 'Ada' } });
    expect(duplicate.isError).toBe(true);
    expect(duplicate.structuredContent).toBeUndefined();
    expect(textOf(duplicate)).toMatch(/^conflict: /);
    const unknown = await writer.callTool({ name: 'get_transfer', arguments: { id: 'tr_nope' } });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toBeUndefined();
    expect(textOf(unknown)).toMatch(/^not_found: /);
    await writer.close();
  });

  it('checks every argument against the tool’s input schema before anything runs, naming the argument', async () => {
    const client = await connect(revision, allToken);
    const refused = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      return textOf(result);
    };
    expect(await refused('list_transfers', { limit: 0 })).toMatch(/^invalid_request: Invalid arguments for list_transfers: limit: /);
    expect(await refused('list_transfers', { limit: 'abc' })).toMatch(/limit: .*number/);
    expect(await refused('list_transfers', { bogusArg: 1 })).toMatch(/bogusArg: not an argument of this tool \(its arguments are limit, cursor, status, q, sort, sentBy\)/);
    expect(await refused('get_transfer', {})).toMatch(/id: required: an id such as tr_/);
    expect(await refused('get_transfer', { id: 123 })).toMatch(/id: must be an id such as tr_/);
    expect(await refused('get_transfer', { id: '../me' })).toMatch(/id: must be an id such as tr_/);
    // An id of another kind is no way to another operation either.
    expect(await refused('get_transfer', { id: 'col_3kR8s0aQ2nVt7LbX4cRw' })).toMatch(/id: must be an id such as tr_/);
    expect(await refused('create_contact', { email: 42 })).toMatch(/email: /);
    await client.close();
  });

  it('hands out the tus endpoint and an upload token per file from create_transfer, so a client streams the bytes itself', async () => {
    const mcp = await open(revision, allToken);
    const bytes = randomFile(300_000);
    const args = { title: `Streamed ${tag}`, files: [{ name: 'clip.bin', size: bytes.length }], idempotencyKey: `streamed-${tag}` };
    const result = await mcp.client.callTool({ name: 'create_transfer', arguments: args });
    const created = CreateTransferResponseSchema.parse(result.structuredContent);
    const target = created.files[0]!;
    const summary = textOf(result);
    expect(summary).toContain(`Draft transfer ${created.id} made`);
    expect(summary).toContain(`with the tus protocol (tus 1.0.0) to ${created.tusEndpoint}, sending the header x-service-upload-token`);
    expect(summary).toContain(`- ${target.id} "clip.bin" · 300 KB · token ${target.uploadToken}`);
    await tusUpload(bytes, { endpoint: atServer(created.tusEndpoint), token: target.uploadToken });
    await callOk(mcp, 'send_transfer', { id: created.id }, TransferSchema);
    const links = await callOk(mcp, 'get_transfer_download_links', { id: created.id }, DownloadLinksSchema);
    expect(Buffer.from(await (await fetch(atServer(links.files[0]!.url))).arrayBuffer()).equals(bytes)).toBe(true);
    await mcp.client.close();
  });

  it('answers a listing tool with a summary a model reads, and the full page as structured content', async () => {
    const client = await connect(revision, allToken);
    for (const title of ['First', 'Second', 'Third']) {
      const made = await server.fetch('/api/v1/transfers', { method: 'POST', token: allToken, json: { title: `Listed${tag} ${title}`, files: [{ name: 'a.bin', size: 10 }] } });
      expect(made.status, await made.clone().text()).toBe(201);
    }
    const first = await client.callTool({ name: 'list_transfers', arguments: { limit: 2, status: 'draft', q: `Listed${tag}` } });
    const page = TransferListSchema.parse(first.structuredContent);
    expect(page.transfers).toHaveLength(2);
    const summary = textOf(first);
    expect(summary.split('\n')[0]).toBe('2 transfers on this page:');
    for (const t of page.transfers) expect(summary).toContain(`- ${t.id} ${JSON.stringify(t.title)} · draft · 1 file, 10 bytes`);
    expect(summary).toContain(`More: call list_transfers again with the same arguments and cursor ${JSON.stringify(page.nextCursor)}.`);
    const next = await client.callTool({ name: 'list_transfers', arguments: { limit: 2, status: 'draft', q: `Listed${tag}`, cursor: page.nextCursor } });
    expect(next.isError, textOf(next)).toBeFalsy();
    expect(TransferListSchema.parse(next.structuredContent).transfers.map((t) => t.id)).not.toContain(page.transfers[0]!.id);
    await client.close();
  });
});

/** A signed URL as this run's server answers it (the test server's PUBLIC_URL names no port). */
const atServer = (url: string) => {
  const signed = new URL(url);
  return `${server.url}${signed.pathname}${signed.search}`;
};

const textOf = (result: { content?: unknown }) => ((result.content as { type: string; text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('\n');

/** One JSON-RPC request to /mcp as a 2025-11-25 client sends it after initialize (stateless: no session). */
async function rpc(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization: `Bearer ${allToken}`, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
}

/** The JSON-RPC message of an answer, whether it came as JSON or as one SSE event. */
async function message(res: Response): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } }> {
  const text = await res.text();
  return JSON.parse(res.headers.get('content-type')?.includes('text/event-stream') ? text.split('\n').find((l) => l.startsWith('data: '))!.slice(6) : text);
}

describe('MCP refusals and discovery', () => {
  it('answers a call the credential lacks the scope for with 403 and an insufficient_scope challenge naming the scope, before the tool runs', async () => {
    const contactsBefore = (await (await server.fetch('/api/v1/contacts', { token: allToken })).json()) as { contacts: unknown[] };
    const res = await rpc('tools/call', { name: 'create_contact', arguments: { email: 'scope-check@example.test' } }, { authorization: `Bearer ${readToken}` });
    expect(res.status).toBe(403);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer error="insufficient_scope"/);
    expect(challenge).toContain('scope="contacts:write"');
    expect(challenge).toContain(`resource_metadata="${server.services.config.PUBLIC_URL}/.well-known/oauth-protected-resource/mcp"`);
    // What a client that cannot step up shows.
    expect(((await res.json()) as { error_description: string }).error_description).toContain('The tool create_contact needs the contacts:write scope');
    const contactsAfter = (await (await server.fetch('/api/v1/contacts', { token: allToken })).json()) as { contacts: unknown[] };
    expect(contactsAfter.contacts).toHaveLength(contactsBefore.contacts.length);
    // A write scope covers its reads: no challenge.
    const covered = await rpc('tools/call', { name: 'list_contacts', arguments: {} }, { authorization: `Bearer ${writeToken}` });
    expect(covered.status).toBe(200);
  });

  it('refuses a web origin other than its own (DNS-rebinding protection), and serves requests without one', async () => {
    const evil = await rpc('tools/list', {}, { origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { error: { code: string; details: { reason: string } } }).error).toMatchObject({ code: 'forbidden', details: { reason: 'origin_not_allowed' } });
    expect((await rpc('tools/list', {}, { origin: 'null' })).status).toBe(403);
    expect((await rpc('tools/list', {})).status).toBe(200);
    const own = await rpc('tools/list', {}, { origin: new URL(server.services.config.PUBLIC_URL).origin });
    expect(own.status).toBe(200);
  });

  it('lets an origin the operator allowed call from a browser, with CORS', async () => {
    const allowing = await startTestServer({ MCP_ALLOWED_ORIGINS: 'https://inspector.example.test' });
    try {
      const token = await (await allowing.createWorkspace({ plan: 'paid' })).createKey(['transfers:read']);
      const origin = 'https://inspector.example.test';
      const preflight = await fetch(`${allowing.url}/mcp`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization.*Mcp-Protocol-Version/);
      const listed = await fetch(`${allowing.url}/mcp`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(listed.status).toBe(200);
      expect(listed.headers.get('access-control-allow-origin')).toBe(origin);
      expect((await fetch(`${allowing.url}/mcp`, { method: 'POST', headers: { origin: 'https://other.example.test' } })).status).toBe(403);
    } finally {
      await allowing.stop();
    }
  });

  it('names every revision it serves in server/discover and in the unsupported-version error alike', async () => {
    const served = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const discovered = await message(await rpc('server/discover', { _meta: meta }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' }));
    expect(discovered.result?.supportedVersions).toEqual(served);
    for (const requested of ['2099-01-01', '2024-11-05']) {
      const res = await rpc('tools/list', {}, { 'mcp-protocol-version': requested });
      expect(res.status).toBe(400);
      const { error } = await message(res);
      expect(error).toMatchObject({ code: -32022, data: { supported: served, requested } });
      expect(error!.message).toContain(served.join(', '));
    }
    // initialize negotiates down to the newest 2025 revision for a version it does not know.
    const init = await message(await rpc('initialize', { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: { name: 'probe', version: '1' } }, { 'mcp-protocol-version': '2025-11-25' }));
    expect(init.result?.protocolVersion).toBe('2025-11-25');
  });

  it('refuses a tools/list cursor it never issued with -32602', async () => {
    const listed = await message(await rpc('tools/list', {}));
    expect(listed.result?.nextCursor).toBeUndefined();
    const res = await rpc('tools/list', { cursor: 'nope' });
    const { error } = await message(res);
    expect(error).toMatchObject({ code: -32602 });
    expect(error!.message).toContain('Unknown cursor');
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
