import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client as ClientV2, InsufficientScopeError, StreamableHTTPClientTransport as TransportV2, UnauthorizedError as UnauthorizedErrorV2 } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError as UnauthorizedError1 } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPinned, node22, pinnedCache } from '../../../scripts/pinned-tools.js';
import { collectionsApi } from '../test/collections.js';
import { ContactResponseSchema } from '../../contract/contacts.js';
import { scopes } from '../../contract/scopes.js';
import { CreateTransferResponseSchema } from '../../contract/transfers.js';
import { WebhookWithSecretSchema } from '../../contract/webhooks.js';
import { startTestServer, type TestServer, type TestWorkspace } from '../test/harness.js';
import { freePort, signedInBrowser, type Browser } from '../test/oauth-client.js';
import { randomFile, tusUpload } from '../test/uploads.js';
import { toolSpecs } from './tools.js';

/**
 * A conformance matrix of real MCP clients against one running server's /mcp: each client connects with
 * an API key and with an OAuth access token got through the real authorization flow, lists the tools,
 * calls every tool once with valid arguments and with invalid ones (the mistakes a model really makes:
 * a missing required argument, a wrong type, a path-escaping id, an unknown argument, `limit: 0`), and
 * reads each result as that client does.
 *
 * - The 1.x SDK client (`@modelcontextprotocol/sdk`, pinned 1.32.2) speaks revision 2025-11-25 only (the
 *   initialize handshake). It checks a result's `structuredContent` against the tool's `outputSchema`
 *   once `tools/list` was called, and throws -32602 when it does not match: so it lists the tools first,
 *   as real clients do, and a refused call must come back without `structuredContent`.
 * - The v2 client (`@modelcontextprotocol/client` 2.4.0) runs over both revisions, pinned per run with
 *   `versionNegotiation` (2025-11-25 legacy handshake; 2026-07-28 `server/discover`, stateless).
 * - Both SDKs get their OAuth token through their own `OAuthClientProvider`: the 401's `resource_metadata`,
 *   RFC 9728 and RFC 8414 discovery, dynamic registration, `redirectToAuthorization(url)`, the owner's
 *   approval on the consent route (a signed-in dashboard session, as src/server/test/oauth-client.ts
 *   gives it), the code read from the redirect's Location (no listener: a loopback redirect URI), then
 *   `transport.finishAuth`. That the flow completes is what proves each client finds its way. The SDKs send
 *   `state` only when the provider has a `state()` method: the v2 runs' provider has one (and the state
 *   comes back), the 1.x runs' has none, as the 1.x SDK's own example provider (PKCE protects the flow).
 * - Each SDK run calls every tool with valid arguments and with every invalid set of the table.
 * - The official MCP Inspector in its CLI mode (`@modelcontextprotocol/inspector` 2.12.0, run as its
 *   `mcp-inspector --cli`; `@modelcontextprotocol/inspector-cli` 1.0.3 is the v1 Inspector's CLI, on the 1.x
 *   SDK) speaks both revisions (`--protocol-era legacy` for 2025-11-25, `modern` for 2026-07-28; it rides the
 *   v2 client 2.3.1). It needs Node 22, so it runs on the pinned Node 22 binary; both are installed on demand
 *   into .cache/mcp-conformance by scripts/pinned-tools.ts. With an API key it is given an `Authorization`
 *   header, under a HOME of its own (one holding a stored OAuth token for the server, it sends that token
 *   instead of the header, and get_account says `oauth`). For OAuth it runs its own flow (discovery from the 401, dynamic registration, PKCE and `state`;
 *   its listener on a loopback callback URL gets the code from us, as the owner's browser would deliver
 *   it), keeps the token in a file store under its HOME, and every later OAuth invocation uses it with
 *   `--stored-auth-only`. Each invocation is one process (connect, list, call), three at a time: all four
 *   (revision, credential) combinations list the tools and ask who they are (get_account), and each tool
 *   is called once with valid arguments and once with invalid ones, the combinations taking turns tool by
 *   tool (MCP_INSPECTOR_FULL=1: every tool in every combination; see INSPECTOR_FULL).
 *
 * A refused call must not have run anything: every MCP request carries an `X-Request-Id` of ours, the
 * server logs one line per request (the in-process /api/v1 request a tool call makes carries the same
 * id), and a refused call has no /api/v1 line (a valid call has one, which shows the check can see them).
 * A call lacking a scope is refused with HTTP 403 and `WWW-Authenticate: Bearer error="insufficient_scope"`,
 * and each client surfaces it its own way (checked, and printed at the end of the run): the 1.x SDK throws
 * its StreamableHTTPError 403 (with an OAuth provider it first refreshes its token, which cannot widen the
 * grant, and gives up); v2 throws InsufficientScopeError with an API key and, with an OAuth provider, sends
 * the owner to authorize the wider scope (UnauthorizedError until that is done); the Inspector exits 1 with
 * the SDK's message. Requests with a foreign `Origin` are refused with 403.
 */

type Revision = '2025-11-25' | '2026-07-28';
type Credential = 'api-key' | 'oauth';
type ClientName = 'sdk-1.x' | 'client-v2' | 'inspector';
type Args = Record<string, unknown>;

const INSPECTOR_VERSION = '2.12.0';
/** Invocations of the Inspector at once: the machine has two cores, and the server shares them. */
const INSPECTOR_WIDTH = 3;
/**
 * Each Inspector invocation is a Node 22 process that costs about 0.8 s of CPU (start, connect, list, check,
 * call): every tool valid and invalid over both revisions and both credentials would be 160 of them, over a
 * minute on two cores. So by default each tool is called through the Inspector once with valid arguments
 * and once with invalid ones, the four (revision, credential) combinations taking turns tool by tool; all
 * four list the tools. MCP_INSPECTOR_FULL=1 runs the whole cross product.
 */
const INSPECTOR_FULL = process.env.MCP_INSPECTOR_FULL === '1';

let server: TestServer;
let issuer: string;
let ws: TestWorkspace;
/** Every scope. */
let apiKey: string;
/** Every scope but contacts:write. */
let narrowKey: string;
const logLines: string[] = [];
/** What each client did where the matrix records rather than requires (printed at the end). */
const observed: string[] = [];

/** What every run shares: made once through /api/v1. */
interface Fixtures {
  /** A sent transfer with a file. */
  transferId: string;
  /** A collection with two files (so a page of one has a next page). */
  collectionId: string;
  contactId: string;
  webhookId: string;
}

/** What each run of a client changes, so no run depends on another's writes. */
interface RunFixtures {
  tag: string;
  /** An unsent transfer with a complete file, for send_transfer. */
  draftId: string;
  /** A sent transfer, for revoke_transfer. */
  sentId: string;
}

let fixtures: Fixtures;

interface Invalid {
  args: Args;
  /** The argument the refusal must name. */
  names: string;
  /** Set when the arguments are well-formed and the operation itself refuses them (it ran, and answered this error code). */
  apiRefuses?: string;
}

interface ToolCase {
  valid: (f: Fixtures, run: RunFixtures) => Args;
  invalid: (f: Fixtures, run: RunFixtures) => Invalid[];
}

/**
 * Valid and invalid arguments for every tool. A tool in toolSpecs missing here fails the first test, so a
 * new tool is never left out of the matrix. No invalid set puts a string where a number or a boolean goes:
 * the Inspector converts string arguments to the type the input schema declares, even from
 * --tool-args-json (`maxDownloads: "fifty"` goes out as `Number("fifty")`, NaN, which JSON makes `null`:
 * a valid call that lifts the download limit).
 */
const toolCases: Record<string, ToolCase> = {
  get_account: {
    valid: () => ({}),
    invalid: () => [{ args: { bogusArg: true }, names: 'bogusArg' }],
  },
  list_transfers: {
    // Fewer than there are: the summary must say how to get the next page.
    valid: () => ({ limit: 2 }),
    invalid: () => [
      { args: { limit: 0 }, names: 'limit' },
      { args: { limit: 501 }, names: 'limit' },
    ],
  },
  get_transfer: {
    valid: (f) => ({ id: f.transferId }),
    invalid: () => [
      { args: { id: '../me' }, names: 'id' },
      { args: { id: 123 }, names: 'id' },
      { args: {}, names: 'id' },
      // Well-formed, but no such transfer: the API's 404 as a tool error.
      { args: { id: 'tr_nope' }, names: 'Transfer not found', apiRefuses: 'not_found' },
    ],
  },
  list_transfer_downloads: {
    valid: (f) => ({ id: f.transferId }),
    invalid: (f) => [
      { args: { id: '../../me' }, names: 'id' },
      { args: { id: f.transferId, bogusArg: 1 }, names: 'bogusArg' },
    ],
  },
  create_transfer: {
    valid: (_, run) => ({ title: `Notes ${run.tag}`, files: [{ name: `notes-${run.tag}.txt`, size: 12 }], idempotencyKey: `create-transfer-${run.tag}` }),
    invalid: (_, run) => [
      { args: { title: `Notes ${run.tag}`, files: `notes-${run.tag}.txt` }, names: 'files' },
      { args: { title: 404, files: [{ name: 'notes.txt', size: 12 }] }, names: 'title' },
    ],
  },
  send_transfer: {
    valid: (_, run) => ({ id: run.draftId, idempotencyKey: `send-transfer-${run.tag}` }),
    invalid: () => [
      { args: {}, names: 'id' },
      { args: { id: '../me' }, names: 'id' },
    ],
  },
  update_transfer: {
    valid: (f) => ({ id: f.transferId, maxDownloads: 50 }),
    invalid: (f) => [
      { args: { id: f.transferId, maxDownloads: true }, names: 'maxDownloads' },
      { args: { id: '../me', maxDownloads: 50 }, names: 'id' },
    ],
  },
  revoke_transfer: {
    valid: (_, run) => ({ id: run.sentId, idempotencyKey: `revoke-transfer-${run.tag}` }),
    invalid: () => [
      { args: { id: '../me' }, names: 'id' },
      { args: { id: 7 }, names: 'id' },
    ],
  },
  list_collections: {
    valid: () => ({}),
    invalid: () => [{ args: { bogusArg: 'x' }, names: 'bogusArg' }],
  },
  get_collection: {
    valid: (f) => ({ id: f.collectionId }),
    invalid: () => [
      { args: { id: 123 }, names: 'id' },
      { args: { id: '../me' }, names: 'id' },
    ],
  },
  list_collection_files: {
    valid: (f) => ({ id: f.collectionId, limit: 1 }),
    invalid: (f) => [
      { args: { id: f.collectionId, limit: 0 }, names: 'limit' },
      { args: { limit: 1 }, names: 'id' },
    ],
  },
  create_collection_folder: {
    valid: (f, run) => ({ id: f.collectionId, name: `Folder ${run.tag}`, idempotencyKey: `folder-${run.tag}` }),
    invalid: (f) => [
      { args: { id: f.collectionId }, names: 'name' },
      { args: { id: f.collectionId, name: ['Day 1'] }, names: 'name' },
    ],
  },
  invite_collection_guests: {
    valid: (f, run) => ({ id: f.collectionId, emails: [`guest-${run.tag}@example.test`], idempotencyKey: `invite-${run.tag}` }),
    invalid: (f, run) => [
      { args: { id: f.collectionId, emails: `guest-${run.tag}@example.test` }, names: 'emails' },
      { args: { id: '../me', emails: [`guest-${run.tag}@example.test`] }, names: 'id' },
    ],
  },
  list_contacts: {
    valid: () => ({}),
    invalid: () => [
      { args: { q: 5 }, names: 'q' },
      { args: { bogusArg: true }, names: 'bogusArg' },
    ],
  },
  create_contact: {
    valid: (_, run) => ({ email: `contact-${run.tag}@example.test`, firstName: 'Ada', idempotencyKey: `contact-${run.tag}` }),
    invalid: () => [
      { args: { firstName: 'Ada' }, names: 'email' },
      { args: { email: 42 }, names: 'email' },
    ],
  },
  replace_contact: {
    valid: (f) => ({ id: f.contactId, email: 'grace@example.test', firstName: 'Grace', lastName: 'Hopper' }),
    invalid: () => [
      { args: { id: '../me', email: 'grace@example.test' }, names: 'id' },
      { args: { email: 'grace@example.test' }, names: 'id' },
    ],
  },
  list_webhooks: {
    valid: () => ({}),
    invalid: () => [{ args: { bogusArg: 1 }, names: 'bogusArg' }],
  },
  list_webhook_deliveries: {
    valid: (f) => ({ id: f.webhookId }),
    invalid: () => [
      { args: { id: '../me' }, names: 'id' },
      { args: {}, names: 'id' },
    ],
  },
  get_transfer_download_links: {
    valid: (f) => ({ id: f.transferId }),
    invalid: () => [
      { args: { id: '../me' }, names: 'id' },
      { args: { id: 123 }, names: 'id' },
    ],
  },
  get_collection_download_links: {
    valid: (f) => ({ id: f.collectionId }),
    invalid: () => [
      { args: { id: '../me' }, names: 'id' },
      { args: {}, names: 'id' },
    ],
  },
};

/** The list tools: their first text is a summary for the model, their JSON the structured content. */
const listTools = new Set(['list_transfers', 'list_collections', 'list_collection_files', 'list_contacts', 'list_webhooks', 'list_webhook_deliveries', 'list_transfer_downloads']);

// ---------------------------------------------------------------------------------------------------
// The server's request log: one line per request, with the request id we sent.

interface LogLine {
  msg?: string;
  requestId?: string;
  method?: string;
  path?: string;
  status?: number;
}

/** The /api/v1 requests made under a request id (a tool call's own, in process). */
function apiRequestsOf(requestId: string): string[] {
  return logLines
    .map((line) => JSON.parse(line) as LogLine)
    .filter((l) => l.msg === 'request' && l.requestId === requestId && l.path?.startsWith('/api/v1'))
    .map((l) => `${l.method} ${l.path} ${l.status}`);
}

// ---------------------------------------------------------------------------------------------------
// What every client's answers are checked for.

interface ToolResult {
  isError?: boolean;
  content?: { type: string; text?: string }[];
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

interface ListedTool {
  name: string;
  outputSchema?: unknown;
}

const validator = new AjvJsonSchemaValidator();

function expectListed(tools: ListedTool[]) {
  expect(tools.map((t) => t.name).sort()).toEqual(toolSpecs.map((t) => t.name).sort());
}

function firstText(result: ToolResult): string {
  const text = result.content?.find((c) => c.type === 'text')?.text;
  expect(text, `a text content in ${JSON.stringify(result)}`).toEqual(expect.any(String));
  return text!;
}

/** How get_account says the caller authenticated: `key` or `oauth`. */
const viaOf = (result: ToolResult) => (result.structuredContent as { key?: { via?: string } } | undefined)?.key?.via;

/** A valid call: no error, a text content, structured content matching the declared output schema, and it ran its operation. */
function expectAnswered(where: string, tool: ListedTool, result: ToolResult, requestId: string) {
  expect(result.isError, `${where}: ${JSON.stringify(result.content)}`).toBeFalsy();
  const text = firstText(result);
  if (tool.outputSchema) {
    expect(result.structuredContent, `${where}: structuredContent`).toBeDefined();
    const check = validator.getValidator(tool.outputSchema as never)(result.structuredContent);
    expect(check.valid, `${where}: ${check.errorMessage}`).toBe(true);
  }
  if (listTools.has(tool.name)) {
    // A summary for the model, not the JSON again; and how to get the next page when there is one.
    expect(text.trimStart().startsWith('{'), `${where}: the first text is a summary: ${text.slice(0, 200)}`).toBe(false);
    const nextCursor = (result.structuredContent as { nextCursor?: string | null } | undefined)?.nextCursor;
    if (nextCursor) {
      expect(text, `${where}: says to call again with the cursor`).toMatch(/\bcursor\b/);
      expect(text, `${where}: names the next page's cursor`).toContain(JSON.stringify(nextCursor));
    }
  }
  expect(apiRequestsOf(requestId).length, `${where}: its /api/v1 request is in the log under ${requestId}`).toBeGreaterThan(0);
}

/** A refused call: `isError`, the API's code and message naming the argument, no structured content, and nothing ran. */
function expectRefused(where: string, result: ToolResult, invalid: Invalid, requestId: string) {
  expect(result.isError, `${where}: ${JSON.stringify(result)}`).toBe(true);
  expect(result.structuredContent, `${where}: no structuredContent on an error`).toBeUndefined();
  const text = firstText(result);
  if (invalid.apiRefuses) {
    expect(text, where).toMatch(new RegExp(`^${invalid.apiRefuses}: `));
    expect(text, `${where}: says what was refused`).toContain(invalid.names);
    expect(apiRequestsOf(requestId).length, `${where}: the operation ran and refused`).toBeGreaterThan(0);
    return;
  }
  expect(text, where).toMatch(/^invalid_request: /);
  expect(text, `${where}: names the argument`).toContain(invalid.names);
  // For {id: '../me'}: no /api/v1/me (nor any other operation) was reached.
  expect(apiRequestsOf(requestId), `${where}: ran nothing`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------------
// The owner's side of an authorization: what the dashboard's consent page does.

let owner: Browser;

/**
 * The owner opens the authorization URL a client produced, reads on the consent page what it asks for,
 * approves it (less `untick`), and the browser is sent back to the client's redirect URI: returns that
 * URL, with `code`, `state` and `iss`.
 */
async function approve(authorizationUrl: URL, untick: string[] = []): Promise<URL> {
  const start = await owner(authorizationUrl.href);
  const consent = start.headers.get('location');
  if (start.status !== 303 || !consent?.startsWith('/oauth/consent/')) throw new Error(`authorize: ${start.status} ${consent} ${await start.text()}`);
  const details = (await (await owner(`${consent}/details`)).json()) as { scopes: string[] };
  const decided = await owner(consent, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: issuer },
    body: JSON.stringify({ approve: true, scopes: details.scopes.filter((s) => !untick.includes(s)) }),
  });
  if (decided.status !== 200) throw new Error(`consent: ${decided.status} ${await decided.text()}`);
  const { redirectTo } = (await decided.json()) as { redirectTo: string };
  const back = (await owner(redirectTo)).headers.get('location');
  if (!back) throw new Error('no redirect back to the client');
  return new URL(back);
}

/**
 * An MCP client's OAuth state, in memory, for both SDKs' `OAuthClientProvider` (the v2 one is the 1.x one
 * with optional context arguments): a public client with a loopback redirect URI, registered dynamically.
 */
class LoopbackOAuthProvider implements OAuthClientProvider {
  readonly authorizationUrls: URL[] = [];
  private client: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  /** The `state` of the last authorization request, to compare with the one the redirect brings back (the SDKs leave that to the app). */
  lastState = '';

  /** Present only for a provider that sends `state` (the SDKs look for the method). */
  state?: () => string;

  constructor(
    readonly redirectUrl: string,
    private readonly name: string,
    sendsState: boolean,
  ) {
    if (sendsState) {
      this.state = () => {
        this.lastState = randomBytes(16).toString('base64url');
        return this.lastState;
      };
    }
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

// ---------------------------------------------------------------------------------------------------
// The SDK clients.

/** The requests a client sent to /mcp, each with the `X-Request-Id` this fetch gave it. */
interface Sent {
  requestId: string;
  method?: string;
  toolName?: string;
  protocolVersion: string | null;
}

/** A fetch for a client's transport that gives each request an id of ours and records it. */
function tracingFetch(prefix: string, sent: Sent[]) {
  let n = 0;
  return async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const requestId = `${prefix}.${++n}`;
    headers.set('x-request-id', requestId);
    if (new URL(String(url)).pathname === '/mcp' && typeof init?.body === 'string') {
      const body = JSON.parse(init.body) as { method?: string; params?: { name?: string } };
      sent.push({ requestId, method: body.method, toolName: body.params?.name, protocolVersion: headers.get('mcp-protocol-version') });
    }
    return fetch(url, { ...init, headers });
  };
}

/** One connected SDK client, whichever SDK it is. */
interface SdkSession {
  listTools(): Promise<ListedTool[]>;
  callTool(name: string, args: Args): Promise<ToolResult>;
  close(): Promise<void>;
  sent: Sent[];
}

interface SdkRun {
  client: Exclude<ClientName, 'inspector'>;
  revision: Revision;
  credential: Credential;
}

const sdkRuns: SdkRun[] = [
  { client: 'sdk-1.x', revision: '2025-11-25', credential: 'api-key' },
  { client: 'sdk-1.x', revision: '2025-11-25', credential: 'oauth' },
  { client: 'client-v2', revision: '2025-11-25', credential: 'api-key' },
  { client: 'client-v2', revision: '2025-11-25', credential: 'oauth' },
  { client: 'client-v2', revision: '2026-07-28', credential: 'api-key' },
  { client: 'client-v2', revision: '2026-07-28', credential: 'oauth' },
];

const runTag = (client: ClientName, revision: Revision, credential: Credential) =>
  `${client.replace(/\W/g, '')}-${credential === 'api-key' ? 'key' : 'oauth'}-${revision.slice(0, 4)}`;

const mcpUrl = () => new URL(`${server.url}/mcp`);
const redirectUri = () => `http://127.0.0.1:${9000 + Math.floor(Math.random() * 1000)}/callback`;

/** How an SDK client is made: with a bearer credential, or with an OAuth provider (its own flow on 401). */
type SdkAuth = { key: string } | { provider: LoopbackOAuthProvider };

function sdk1Session(auth: SdkAuth, prefix: string, extraHeaders: Record<string, string> = {}) {
  const sent: Sent[] = [];
  // The 1.x transport takes a static credential as a header; an OAuth provider as authProvider.
  const transport = new Transport1(mcpUrl(), {
    fetch: tracingFetch(prefix, sent),
    requestInit: { headers: { ...extraHeaders, ...('key' in auth ? { authorization: `Bearer ${auth.key}` } : {}) } },
    ...('provider' in auth ? { authProvider: auth.provider } : {}),
  });
  const client = new Client1({ name: 'parcel-matrix-sdk1', version: '1.0.0' });
  const session: SdkSession = {
    sent,
    listTools: async () => (await client.listTools()).tools,
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
    close: () => client.close(),
  };
  return { client, transport, session, connect: () => client.connect(transport) };
}

function v2Session(auth: SdkAuth, revision: Revision, prefix: string, extraHeaders: Record<string, string> = {}) {
  const sent: Sent[] = [];
  const transport = new TransportV2(mcpUrl(), {
    fetch: tracingFetch(prefix, sent),
    requestInit: { headers: extraHeaders },
    authProvider: 'key' in auth ? { token: async () => auth.key } : auth.provider,
  });
  const mode = revision === '2025-11-25' ? ('legacy' as const) : { pin: revision };
  const client = new ClientV2({ name: 'parcel-matrix-v2', version: '1.0.0' }, { versionNegotiation: { mode } });
  const session: SdkSession = {
    sent,
    listTools: async () => (await client.listTools()).tools,
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
    close: () => client.close(),
  };
  return { client, transport, session, connect: () => client.connect(transport) };
}

/**
 * Connects an SDK client. With OAuth, the first connection meets the 401 and runs the SDK's own flow up to
 * `redirectToAuthorization`; the owner approves; `finishAuth` redeems the code; a second connection uses the token.
 */
async function connectSdk(run: SdkRun, prefix: string, options: { untick?: string[] } = {}): Promise<{ session: SdkSession; provider?: LoopbackOAuthProvider }> {
  const make = (auth: SdkAuth) => (run.client === 'sdk-1.x' ? sdk1Session(auth, prefix) : v2Session(auth, run.revision, prefix));
  if (run.credential === 'api-key') {
    const made = make({ key: apiKey });
    await made.connect();
    return { session: made.session };
  }
  const provider = new LoopbackOAuthProvider(redirectUri(), `Matrix ${run.client} ${run.revision}`, run.client !== 'sdk-1.x');
  const first = make({ provider });
  const refused = await first.connect().then(
    () => null,
    (error: unknown) => error,
  );
  expect(refused, 'the first connection needs authorization').toBeInstanceOf(run.client === 'sdk-1.x' ? UnauthorizedError1 : UnauthorizedErrorV2);
  expect(provider.authorizationUrls, 'the SDK sent the owner to authorize').toHaveLength(1);
  const authorizationUrl = provider.authorizationUrls[0]!;
  expect(authorizationUrl.origin).toBe(issuer);
  expect(authorizationUrl.searchParams.get('resource')).toBe(`${issuer}/mcp`);
  const back = await approve(authorizationUrl, options.untick);
  expect(back.searchParams.get('state')).toBe(provider.state ? provider.lastState : null);
  if (first.transport instanceof TransportV2) await first.transport.finishAuth(back.searchParams);
  else await first.transport.finishAuth(back.searchParams.get('code')!);
  await first.client.close();
  // The client found its way from the 401 alone: the resource metadata it named, the authorization server's, then registration and the code redeemed.
  // (The status is not compared: the request log has 200 for what the OAuth provider answered itself, a registration's 201 too.)
  const flow = oauthRequestsOf(prefix).map((line) => line.replace(/ \d+$/, ''));
  for (const step of ['GET /.well-known/oauth-protected-resource/mcp', 'GET /.well-known/oauth-authorization-server', 'POST /oauth/register', 'POST /oauth/token']) {
    expect(flow, `${run.client} ${run.revision}: ${step}`).toContain(step);
  }
  const made = make({ provider });
  await made.connect();
  return { session: made.session, provider };
}

/** The id of the last tools/call of `name` a session sent. */
function lastCallId(session: SdkSession, name: string): string {
  const call = session.sent.findLast((s) => s.method === 'tools/call' && s.toolName === name);
  expect(call, `a tools/call of ${name} was sent`).toBeDefined();
  return call!.requestId;
}

// ---------------------------------------------------------------------------------------------------
// The Inspector CLI.

let inspectorCli: string;
let inspectorNode: string;
let inspectorHome: string;
/** The Inspector and Node 22, installed (or found installed) while the SDK runs go on. */
let inspectorInstalled: Promise<[string, string]>;

interface InspectorOutcome {
  code: number;
  result?: ToolResult & { tools?: ListedTool[] };
  error?: { code: string; message: string };
  stderr: string;
  ms: number;
}

/**
 * One `mcp-inspector --cli` invocation; `onStderr` sees its standard error as it comes. Nothing of the
 * developer's: a HOME of its own (catalog, OAuth state, secrets in a file, no keychain), one per credential.
 * An API key's invocations must not find the OAuth token stored by the others: the Inspector then sends
 * that token instead of the Authorization header it was given (and, on a 403, retries with it).
 */
function inspector(credential: Credential, args: string[], env: Record<string, string> = {}, onStderr?: (text: string) => void): Promise<InspectorOutcome> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const home = path.join(inspectorHome, credential);
    const child = spawn(inspectorNode, [inspectorCli, '--cli', ...args, '--format', 'json'], {
      env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1', MCP_INSPECTOR_SECRET_STORE: 'file', NODE_COMPILE_CACHE: path.join(pinnedCache, 'node-compile-cache'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
      onStderr?.(stderr);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const json = (text: string, key: string) => {
        const line = text.split('\n').find((l) => l.startsWith(`{"${key}"`));
        return line ? (JSON.parse(line) as Record<string, never>)[key] : undefined;
      };
      resolve({ code: code ?? -1, result: json(stdout, 'result'), error: json(stderr, 'error'), stderr, ms: Date.now() - started });
    });
  });
}

/** Runs `tasks` at most `width` at a time. */
async function inPool<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]!();
      }
    }),
  );
  return results;
}

// ---------------------------------------------------------------------------------------------------
// Fixtures through /api/v1.

async function api(method: string, pathname: string, json?: unknown): Promise<unknown> {
  const res = await server.fetch(`/api/v1${pathname}`, { method, token: apiKey, json });
  if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A transfer with one uploaded file, sent or not. */
async function transferWithFile(title: string, send: boolean): Promise<string> {
  const bytes = randomFile(64);
  const created = CreateTransferResponseSchema.parse(await api('POST', '/transfers', { title, files: [{ name: 'notes.bin', size: bytes.length }] }));
  await tusUpload(bytes, { endpoint: `${server.url}/files/`, token: created.files[0]!.uploadToken });
  if (send) await api('POST', `/transfers/${created.id}/finalize`);
  return created.id;
}

async function runFixtures(tag: string): Promise<RunFixtures> {
  const [draftId, sentId] = await Promise.all([transferWithFile(`Draft ${tag}`, false), transferWithFile(`Sent ${tag}`, true)]);
  return { tag, draftId, sentId };
}

beforeAll(async () => {
  inspectorInstalled = Promise.all([installPinned('@modelcontextprotocol/inspector', INSPECTOR_VERSION), node22()]);
  // Awaited by the Inspector's tests; a failure is theirs, not an unhandled rejection meanwhile.
  inspectorInstalled.catch(() => undefined);
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  // The issuer is the address clients reach. The webhook receiver is on loopback, which only this development setting allows.
  server = await startTestServer({ PORT: String(port), PUBLIC_URL: issuer, WEBHOOKS_ALLOW_INSECURE: '1', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000' }, { logLines });
  ws = await server.createWorkspace({ plan: 'paid' });
  apiKey = await ws.createKey(scopes);
  narrowKey = await ws.createKey(scopes.filter((s) => s !== 'contacts:write'));
  owner = await signedInBrowser(issuer, ws);

  const collections = collectionsApi(server, apiKey);
  const collection = await collections.create({ title: 'Lookbook' });
  await collections.upload(collection.id, [
    { name: 'cover.bin', bytes: randomFile(100) },
    { name: 'back.bin', bytes: randomFile(100) },
  ]);
  const contact = ContactResponseSchema.parse(await api('POST', '/contacts', { email: 'grace@example.test', firstName: 'Grace' }));
  // Nothing delivers in tests (no worker runs): the receiver is never called.
  const webhook = WebhookWithSecretSchema.parse(await api('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['transfer.expired'] }));
  fixtures = { transferId: await transferWithFile('Report', true), collectionId: collection.id, contactId: contact.contact.id, webhookId: webhook.webhook.id };
});

afterAll(async () => {
  if (observed.length > 0) console.log(`How each MCP client surfaced what the matrix records:\n${observed.map((o) => `  - ${o}`).join('\n')}`);
  if (inspectorHome) fs.rmSync(inspectorHome, { recursive: true, force: true });
  await server?.stop();
});

it('has valid and invalid arguments for every tool, and none for a tool that does not exist', () => {
  const names = toolSpecs.map((t) => t.name);
  expect(names.filter((n) => !(n in toolCases)), 'tools without arguments in toolCases').toEqual([]);
  expect(Object.keys(toolCases).filter((n) => !names.includes(n)), 'toolCases entries for no tool').toEqual([]);
});

describe.each(sdkRuns)('$client over $revision with $credential', (run) => {
  it('connects, lists the tools, calls each with valid arguments and with invalid ones, as the client reads them', async () => {
    const tag = runTag(run.client, run.revision, run.credential);
    const own = await runFixtures(tag);
    const { session } = await connectSdk(run, `mx.${tag}`);
    // Listed first, as real clients do: the 1.x SDK then checks structured output against each outputSchema.
    const tools = await session.listTools();
    expectListed(tools);
    for (const spec of toolSpecs) {
      const tool = tools.find((t) => t.name === spec.name)!;
      const cases = toolCases[spec.name];
      if (!cases) continue;
      const answered = await session.callTool(spec.name, cases.valid(fixtures, own));
      expectAnswered(`${tag} ${spec.name}`, tool, answered, lastCallId(session, spec.name));
      if (spec.name === 'get_account') expect(viaOf(answered), 'the credential the calls are made with').toBe(run.credential === 'api-key' ? 'key' : 'oauth');
      // These pages are shorter than the lists: their summary must say how to go on.
      if (spec.name === 'list_transfers' || spec.name === 'list_collection_files') expect((answered.structuredContent as { nextCursor?: string }).nextCursor, spec.name).toBeTruthy();
      for (const invalid of cases.invalid(fixtures, own)) {
        const refused = await session.callTool(spec.name, invalid.args);
        expectRefused(`${tag} ${spec.name}(${JSON.stringify(invalid.args)})`, refused, invalid, lastCallId(session, spec.name));
      }
    }
    // Spoken over the revision this run is for: every request after the handshake says so.
    const versions = new Set(session.sent.filter((s) => s.method === 'tools/call').map((s) => s.protocolVersion));
    expect([...versions]).toEqual([run.revision]);
    await session.close();
  });
});

describe('a call lacking a scope: HTTP 403 insufficient_scope, as each SDK surfaces it', () => {
  /** The raw answer: what every client below is reading. */
  it('is answered 403 with a WWW-Authenticate challenge naming the scope', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${narrowKey}` };
    const post = (body: unknown, extra: Record<string, string> = {}) => fetch(`${server.url}/mcp`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
    const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    expect(init.status).toBe(200);
    const res = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_contact', arguments: { email: 'scope@example.test' } } }, { 'mcp-protocol-version': '2025-11-25' });
    expect(res.status).toBe(403);
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="contacts:write"');
    expect(challenge).toContain(`resource_metadata="${issuer}/.well-known/oauth-protected-resource/mcp"`);
  });

  it.each(['sdk-1.x', 'client-v2'] as const)('%s with an API key: the call rejects with the 403', async (client) => {
    const made = client === 'sdk-1.x' ? sdk1Session({ key: narrowKey }, `mx.scope.${client}`) : v2Session({ key: narrowKey }, '2026-07-28', `mx.scope.${client}`);
    await made.connect();
    expectListed(await made.session.listTools());
    const error = await made.session.callTool('create_contact', { email: 'scope@example.test' }).then(
      (result) => ({ resolved: result }),
      (e: unknown) => e,
    );
    observed.push(`${client}, API key lacking contacts:write: ${describeError(error)}`);
    expect(error).toBeInstanceOf(Error);
    // v2 reads the challenge (and would step up with an OAuth provider); 1.x, without one, throws the HTTP error.
    if (client === 'client-v2') {
      expect(error).toBeInstanceOf(InsufficientScopeError);
      expect((error as InsufficientScopeError).requiredScope).toBe('contacts:write');
    } else expect(httpStatusOf(error)).toBe(403);
    expect(apiRequestsOf(lastCallId(made.session, 'create_contact'))).toEqual([]);
    await made.session.close();
  });

  it.each(['sdk-1.x', 'client-v2'] as const)('%s with an OAuth token the owner granted without contacts:write: the call rejects, after a step-up attempt', async (client) => {
    const run: SdkRun = { client, revision: client === 'sdk-1.x' ? '2025-11-25' : '2026-07-28', credential: 'oauth' };
    const prefix = `mx.stepup.${client}`;
    const { session, provider } = await connectSdk(run, prefix, { untick: ['contacts:write'] });
    expectListed(await session.listTools());
    const before = oauthRequestsOf(prefix);
    const error = await session.callTool('create_contact', { email: 'stepup@example.test' }).then(
      (result) => ({ resolved: result }),
      (e: unknown) => e,
    );
    const stepUp = provider!.authorizationUrls.slice(1);
    const oauth = oauthRequestsOf(prefix).slice(before.length);
    observed.push(
      `${client}, OAuth token lacking contacts:write: ${describeError(error)}; OAuth requests it made: ${oauth.join(', ') || 'none'}; ` +
        `authorization requests for the owner: ${stepUp.map((u) => `scope="${u.searchParams.get('scope')}"`).join(', ') || 'none'}`,
    );
    expect(error).toBeInstanceOf(Error);
    expect(apiRequestsOf(lastCallId(session, 'create_contact'))).toEqual([]);
    if (client === 'client-v2') {
      // v2 steps up: it sends the owner to authorize what it had plus the scope the challenge named, and the call waits for that.
      expect(error).toBeInstanceOf(UnauthorizedErrorV2);
      expect(stepUp).toHaveLength(1);
      expect(stepUp[0]!.searchParams.get('scope')?.split(' ')).toContain('contacts:write');
    } else {
      // 1.x "upscopes" by refreshing the token it has (which cannot widen its scope), is refused again, and gives up.
      expect(httpStatusOf(error)).toBe(403);
    }
    await session.close();
  });
});

/** The HTTP status an SDK's transport error carries (1.x `code`, v2 `status`). */
function httpStatusOf(error: unknown): number | undefined {
  const e = error as { code?: unknown; status?: unknown };
  return typeof e.status === 'number' ? e.status : typeof e.code === 'number' ? e.code : undefined;
}

/** The OAuth requests (discovery, registration, token) a client made under its request-id prefix. */
function oauthRequestsOf(prefix: string): string[] {
  return logLines
    .map((line) => JSON.parse(line) as LogLine)
    .filter((l) => l.msg === 'request' && l.requestId?.startsWith(`${prefix}.`) && (l.path?.startsWith('/oauth/') || l.path?.startsWith('/.well-known/')))
    .map((l) => `${l.method} ${l.path} ${l.status}`);
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.constructor.name}: ${error.message}`;
  return `no exception: ${JSON.stringify(error)}`;
}

describe('Origin', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const post = (extra: Record<string, string>) =>
    fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${apiKey}`, ...extra },
      body: JSON.stringify(initialize),
    });

  it('refuses a foreign Origin with 403, and serves requests without one', async () => {
    expect((await post({ origin: 'http://evil.example' })).status).toBe(403);
    expect((await post({})).status).toBe(200);
  });

  it.each(['sdk-1.x', 'client-v2'] as const)('%s sending a foreign Origin cannot connect', async (client) => {
    const evil = { origin: 'http://evil.example' };
    const made = client === 'sdk-1.x' ? sdk1Session({ key: apiKey }, 'mx.origin.sdk1', evil) : v2Session({ key: apiKey }, '2026-07-28', 'mx.origin.v2', evil);
    const error = await made.connect().then(
      () => null,
      (e: unknown) => e,
    );
    observed.push(`${client}, foreign Origin: ${describeError(error)}`);
    expect(error).toBeInstanceOf(Error);
    expect(httpStatusOf(error)).toBe(403);
  });
});

describe('MCP Inspector (CLI mode)', () => {
  interface InspectorCall {
    tool: string;
    args: Args;
    invalid?: Invalid;
    requestId: string;
    outcome?: InspectorOutcome;
  }
  interface InspectorRun {
    revision: Revision;
    credential: Credential;
    tag: string;
    list?: InspectorOutcome;
    calls: InspectorCall[];
  }
  const combinations = [
    ['2025-11-25', 'api-key'],
    ['2026-07-28', 'api-key'],
    ['2025-11-25', 'oauth'],
    ['2026-07-28', 'oauth'],
  ] as const;
  const runs: InspectorRun[] = [];
  let narrow: InspectorOutcome;
  let evilOrigin: InspectorOutcome;

  const era = (revision: Revision) => (revision === '2025-11-25' ? 'legacy' : 'modern');
  const target = (run: { revision: Revision; credential: Credential }, requestId: string, key = apiKey) => [
    `${server.url}/mcp`,
    '--transport',
    'http',
    '--protocol-era',
    era(run.revision),
    '--header',
    `X-Request-Id: ${requestId}`,
    ...(run.credential === 'api-key' ? ['--header', `Authorization: Bearer ${key}`] : ['--stored-auth-only']),
  ];

  beforeAll(async () => {
    const [dir, node] = await inspectorInstalled;
    inspectorCli = path.join(dir, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
    inspectorNode = node;
    inspectorHome = fs.mkdtempSync(path.join(os.tmpdir(), 'parcel-mcp-inspector-'));
    for (const credential of ['api-key', 'oauth']) fs.mkdirSync(path.join(inspectorHome, credential));
  }, 300_000);

  beforeAll(async () => {
    const started = Date.now();
    // The Inspector's own OAuth flow, once: on the 401 it discovers, registers, and prints where the owner
    // must go (without a terminal it needs MCP_AUTO_OPEN_ENABLED; BROWSER=true is the "browser" it opens);
    // its listener on the callback URL gets the code as the owner's browser would deliver it. The token
    // stays in the file store under its HOME for the invocations after it.
    const callback = `http://127.0.0.1:${await freePort()}/oauth/callback`;
    let navigate: (url: string) => void;
    const navigated = new Promise<string>((resolve) => (navigate = resolve));
    const oauthList = inspector(
      'oauth',
      [`${server.url}/mcp`, '--transport', 'http', '--protocol-era', 'legacy', '--header', 'X-Request-Id: mx.inspector-oauth-2025.list', '--callback-url', callback, '--method', 'tools/list'],
      { MCP_AUTO_OPEN_ENABLED: 'true', BROWSER: 'true' },
      (stderr) => {
        const url = /Please navigate to: (\S+)/.exec(stderr)?.[1];
        if (url) navigate(url);
      },
    );
    const authorizationUrl = await Promise.race([navigated, oauthList.then((o) => Promise.reject(new Error(`the Inspector ended without asking for authorization: ${o.stderr}`)))]);
    const back = await approve(new URL(authorizationUrl));
    expect(back.href.startsWith(callback)).toBe(true);
    expect((await fetch(back)).status).toBe(200);

    const tasks: (() => Promise<unknown>)[] = [];
    for (const [c, [revision, credential]] of combinations.entries()) {
      const tag = runTag('inspector', revision, credential);
      const run: InspectorRun = { revision, credential, tag, calls: [] };
      runs.push(run);
      if (credential === 'oauth' && revision === '2025-11-25') tasks.push(async () => (run.list = await oauthList));
      else tasks.push(async () => (run.list = await inspector(credential, [...target(run, `mx.${tag}.list`), '--method', 'tools/list'])));
      const share = toolSpecs.filter((spec, i) => spec.name in toolCases && (INSPECTOR_FULL || i % combinations.length === c));
      const own = await runFixtures(tag);
      for (const [i, spec] of share.entries()) {
        const cases = toolCases[spec.name]!;
        const invalids = cases.invalid(fixtures, own);
        // A different invalid argument set each time round.
        const invalid = invalids[(i + c) % invalids.length]!;
        run.calls.push(
          { tool: spec.name, args: cases.valid(fixtures, own), requestId: `mx.${tag}.${spec.name}.valid` },
          { tool: spec.name, args: invalid.args, invalid, requestId: `mx.${tag}.${spec.name}.invalid` },
        );
      }
      // Every combination asks who it is, which shows the credential it was given is the one it used.
      if (!run.calls.some((call) => call.tool === 'get_account')) run.calls.push({ tool: 'get_account', args: {}, requestId: `mx.${tag}.get_account.valid` });
      for (const call of run.calls) {
        const args = ['--method', 'tools/call', '--tool-name', call.tool, '--tool-args-json', JSON.stringify(call.args)];
        tasks.push(async () => (call.outcome = await inspector(credential, [...target(run, call.requestId), ...args])));
      }
    }
    const createContact = ['--method', 'tools/call', '--tool-name', 'create_contact', '--tool-args-json', JSON.stringify({ email: 'scope@example.test' })];
    tasks.push(async () => (narrow = await inspector('api-key', [...target({ revision: '2026-07-28', credential: 'api-key' }, 'mx.inspector.scope', narrowKey), ...createContact])));
    const origin = ['--header', 'Origin: http://evil.example', '--method', 'tools/list'];
    tasks.push(async () => (evilOrigin = await inspector('api-key', [...target({ revision: '2025-11-25', credential: 'api-key' }, 'mx.inspector.origin'), ...origin])));
    await inPool(tasks, INSPECTOR_WIDTH);
    observed.push(`inspector: ${tasks.length} invocations in ${((Date.now() - started) / 1000).toFixed(1)} s, ${INSPECTOR_WIDTH} at a time`);
  }, 180_000);

  it('runs its own OAuth flow: discovery from the 401, dynamic registration, the owner approves, the token is stored for later invocations', () => {
    const { list } = runs.find((r) => r.credential === 'oauth' && r.revision === '2025-11-25')!;
    expect(list?.code, list?.stderr).toBe(0);
    expect(list?.stderr).toContain('Authorization complete');
  });

  it('called every tool, with valid arguments and with invalid ones', () => {
    const called = (valid: boolean) => [...new Set(runs.flatMap((r) => r.calls.filter((c) => !c.invalid === valid).map((c) => c.tool)))].sort();
    expect(called(true)).toEqual(toolSpecs.map((t) => t.name).sort());
    expect(called(false)).toEqual(toolSpecs.map((t) => t.name).sort());
  });

  describe.each(combinations)('over %s with %s', (revision, credential) => {
    const run = () => runs.find((r) => r.revision === revision && r.credential === credential)!;

    it('lists the tools', () => {
      const { list } = run();
      expect(list?.code, list?.stderr).toBe(0);
      expectListed(list!.result!.tools!);
    });

    it('calls tools with valid arguments and with invalid ones: exit 0, or exit 5 with isError (never an error of its own)', () => {
      const tools = run().list!.result!.tools!;
      for (const call of run().calls) {
        const where = `inspector ${run().tag} ${call.tool}(${JSON.stringify(call.args)})`;
        const { outcome } = call;
        expect(outcome, where).toBeDefined();
        // The Inspector's exit codes: 0 answered, 5 the tool returned isError, 1 an error of its own (an output that fails its schema, say).
        expect(outcome!.code, `${where}: ${JSON.stringify(outcome!.error)}`).toBe(call.invalid ? 5 : 0);
        expect(outcome!.result, where).toBeDefined();
        // The 2026 revision has no initialize: the server names itself in each result's _meta.
        expect(outcome!.result!._meta?.['io.modelcontextprotocol/serverInfo'] !== undefined, `${where}: spoken over ${revision}`).toBe(revision === '2026-07-28');
        if (call.invalid) expectRefused(where, outcome!.result!, call.invalid, call.requestId);
        else expectAnswered(where, tools.find((t) => t.name === call.tool)!, outcome!.result!, call.requestId);
      }
      const whoami = run().calls.find((call) => call.tool === 'get_account' && !call.invalid)!.outcome!.result!;
      expect(viaOf(whoami), 'the credential the calls were made with').toBe(credential === 'api-key' ? 'key' : 'oauth');
    });
  });

  it('a call lacking a scope (403 insufficient_scope) fails the invocation, with the reason', () => {
    observed.push(`inspector, API key lacking contacts:write: exit ${narrow.code}, ${JSON.stringify(narrow.error)}`);
    expect(narrow.code).not.toBe(0);
    expect(narrow.error?.message).toContain('contacts:write');
    expect(apiRequestsOf('mx.inspector.scope')).toEqual([]);
  });

  it('cannot connect with a foreign Origin', () => {
    observed.push(`inspector, foreign Origin: exit ${evilOrigin.code}, ${JSON.stringify(evilOrigin.error)}`);
    expect(evilOrigin.code).not.toBe(0);
    expect(JSON.stringify(evilOrigin.error)).toContain('403');
  });
});
