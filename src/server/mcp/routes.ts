import type { HttpBindings } from '@hono/node-server';
import { hostHeaderValidation } from '@modelcontextprotocol/hono';
import {
  createMcpHandler,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type AuthInfo,
  type CallToolResult,
  type McpRequestContext,
  type ScopeChallenge,
} from '@modelcontextprotocol/server';
import { z } from '@hono/zod-openapi';
import type { Hono, MiddlewareHandler } from 'hono';
import { ErrorSchema, type ErrorBody } from '../../contract/errors.js';
import { scopeSatisfies } from '../../contract/scopes.js';
import { bearerToken, resolveCaller } from '../auth/credentials.js';
import type { Caller } from '../core/caller.js';
import { errorBody } from '../core/errors.js';
import type { AppEnv } from '../http/env.js';
import { hostnameOf } from '../http/headers.js';
import { oauthResources, protectedResourceMetadataUrl } from '../oauth/provider.js';
import type { Services } from '../services.js';
import { checkArguments, toolInput, toolOutput, type ArgumentProblem, type ToolInput } from './schemas.js';
import { summarize } from './summaries.js';
import { tools, type Tool } from './tools.js';

/** What the /mcp request resolved, handed to the tools through the SDK's per-request auth info. */
interface CallContext {
  env: HttpBindings;
  requestId: string;
  /** Resolved once, when /mcp authenticated the request; the tool's v1 route takes it as it is. */
  caller: Caller;
}

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Every protocol revision /mcp serves, newest first: 2026-07-28 (server/discover, no handshake) and
 * the 2025 revisions of Streamable HTTP, negotiated by initialize. server/discover, initialize and
 * every unsupported-version error name this same list.
 */
export const servedProtocolVersions = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] as const;

/** POST tools take an optional idempotency key (never derived from the JSON-RPC id: those restart with every connection). */
const idempotencyArgument = {
  idempotencyKey: z
    .string()
    .optional()
    .openapi({ description: 'Optional: the same key again (within 24 hours, with the same arguments) replays the first answer instead of acting twice.' }),
};

/**
 * A refused call as an MCP tool error: `isError` with the API's code and message (and the refused
 * fields) as text the model reads. No structured content: the Error body does not match the tool's
 * output schema, and clients check structured content against it (the 1.x SDK throws on a mismatch).
 */
function toolError(body: ErrorBody): CallToolResult {
  const { code, message, details } = body.error;
  const fields = Array.isArray(details.fields) ? (details.fields as ArgumentProblem[]) : [];
  const lines = [`${code}: ${message}`, ...fields.slice(1).map((f) => `${f.path}: ${f.message}`)];
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }] };
}

function argumentsError(publicUrl: string, tool: Tool, problems: ArgumentProblem[]): CallToolResult {
  const said = problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; ');
  return toolError(errorBody(publicUrl, 'invalid_request', `Invalid arguments for ${tool.name}: ${said}. Nothing was done.`));
}

/**
 * /mcp: the MCP server for AI assistants (Streamable HTTP, stateless: any instance answers any request,
 * in every revision of `servedProtocolVersions`). A bearer credential is required: an OAuth token issued
 * for /mcp (or an API key); without one the answer is 401 pointing at the RFC 9728 metadata, where an
 * assistant finds how to get one. Each tool call is checked against the tool's input schema, then made
 * as the /api/v1 request it stands for, in process with the caller's own token. See docs/mcp.md.
 */
export function mountMcp(app: Hono<AppEnv>, services: Services) {
  const publicUrl = services.config.PUBLIC_URL;
  const mcpResource = oauthResources(publicUrl).mcp;
  const metadataUrl = protectedResourceMetadataUrl(mcpResource);

  const prepared = tools().map((tool) => ({
    tool,
    input: toolInput(tool.operation.request, tool.operation.method === 'POST' ? idempotencyArgument : {}),
    output: tool.operation.success ? toolOutput(tool.operation.success) : undefined,
  }));

  async function call(tool: Tool, input: ToolInput, args: Record<string, unknown>, auth: AuthInfo): Promise<CallToolResult> {
    const context = auth.extra?.parcel as CallContext;
    const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': context.requestId };
    let path = tool.operation.path;
    const query = new URLSearchParams();
    const body: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(args)) {
      if (value === undefined) continue;
      if (name === 'idempotencyKey') headers['Idempotency-Key'] = String(value);
      // Checked to be an id of its kind already; encoded all the same, as every path segment is.
      else if (input.parts[name] === 'params') path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
      else if (input.parts[name] === 'query') query.set(name, String(value));
      else if (input.parts[name] === 'body') body[name] = value;
    }
    const init: RequestInit = { method: tool.operation.method, headers };
    if (tool.operation.request.body) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    // The tool's own v1 route (scopes, plan, idempotency, rate limits and the operation it calls), with the caller already resolved.
    const response = await app.request(`/api/v1${path}${query.size > 0 ? `?${query}` : ''}`, init, { ...context.env, resolvedCaller: context.caller });
    const text = await response.text();
    const json: unknown = text ? JSON.parse(text) : {};
    if (!response.ok) {
      const parsed = ErrorSchema.safeParse(json);
      return toolError(parsed.success ? parsed.data : errorBody(publicUrl, 'internal_error', `The server answered ${response.status}`));
    }
    const summary = summarize(tool.operation.operationId, tool.name, json);
    return { content: [{ type: 'text', text: summary ?? text }], structuredContent: json as Record<string, unknown> };
  }

  /**
   * A call the credential lacks the scope for is answered 403 with an `insufficient_scope` challenge
   * naming the scope (and the resource metadata), before the tool runs, so that an OAuth client can ask
   * the owner for it and retry. Its description is what a client that cannot step up (an API key's
   * scopes are fixed) shows.
   */
  const scopeChallenge =
    (tool: Tool) =>
    ({ authInfo }: { authInfo?: AuthInfo }): ScopeChallenge | undefined => {
      const required = tool.operation.scope;
      if (!authInfo || required === 'any' || scopeSatisfies(authInfo.scopes, required)) return undefined;
      return {
        scopes: [required],
        errorDescription: `The tool ${tool.name} needs the ${required} scope, which this credential lacks: authorize again granting it, or use an API key that has it`,
      };
    };

  const factory = (request: McpRequestContext) => {
    const server = new McpServer(
      { name: 'parcel', version: '1.0.0' },
      { capabilities: { tools: { listChanged: false } }, supportedProtocolVersions: [...servedProtocolVersions] },
    );
    for (const { tool, input, output } of prepared) {
      server.registerTool(
        tool.name,
        {
          title: tool.operation.summary,
          description: tool.operation.description,
          inputSchema: input,
          ...(output ? { outputSchema: output } : {}),
          annotations: { title: tool.operation.summary, ...tool.annotations },
          scopeChallenge: scopeChallenge(tool),
        },
        async (args: unknown, ctx) => {
          const auth = ctx.http?.authInfo ?? request.authInfo;
          if (!auth) return toolError(errorBody(publicUrl, 'unauthorized', 'Missing or invalid credentials'));
          const problems = checkArguments(input, args);
          if (problems.length > 0) return argumentsError(publicUrl, tool, problems);
          return call(tool, input, args as Record<string, unknown>, auth);
        },
      );
    }
    adjustListings(server);
    return server;
  };
  const handler = createMcpHandler(factory, {
    legacy: 'stateless',
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (error: Error) => services.log.warn({ err: error }, 'MCP request failed'),
  });

  // DNS rebinding: only this server's own host may address /mcp, and only its own pages (and the origins
  // an operator allowed) may call it from a browser.
  app.use('/mcp', hostHeaderValidation([hostnameOf(publicUrl)]));
  app.use('/mcp', allowedOriginsOnly(publicUrl, services.config.MCP_ALLOWED_ORIGINS));
  app.all('/mcp', async (c) => {
    const header = c.req.header('authorization');
    const token = bearerToken(header);
    const caller = token ? await resolveCaller(services, token) : null;
    // An OAuth token is for the resource it was issued for: one for /api/v1 does not open /mcp.
    if (!token || !caller || (caller.via === 'oauth' && caller.audience !== mcpResource)) {
      const challenge = `Bearer resource_metadata="${metadataUrl}"${header ? ', error="invalid_token"' : ''}`;
      return c.json(errorBody(publicUrl, 'unauthorized', 'Missing or invalid credentials: connect through OAuth (see the resource metadata)', {}), 401, {
        'WWW-Authenticate': challenge,
      });
    }
    // The SDK names only some revisions in its own unsupported-version errors (those of one era): this names every one.
    const requested = c.req.header('mcp-protocol-version');
    if (requested !== undefined && !(servedProtocolVersions as readonly string[]).includes(requested)) {
      const message = `Unsupported protocol version: ${requested} (supported: ${servedProtocolVersions.join(', ')})`;
      const error = { code: ProtocolErrorCode.UnsupportedProtocolVersion, message, data: { supported: servedProtocolVersions, requested } };
      return c.json({ jsonrpc: '2.0', id: await jsonRpcIdOf(c.req.raw), error }, 400);
    }
    const authInfo: AuthInfo = {
      token,
      clientId: caller.credentialId,
      scopes: caller.scopes,
      resource: new URL(mcpResource),
      resourceMetadataUrl: metadataUrl,
      extra: { parcel: { env: c.env, requestId: c.var.requestId, caller } satisfies CallContext },
    };
    return handler.fetch(c.req.raw, { authInfo });
  });
}

/** The id of the JSON-RPC request in a body (read up to the size limit), to answer an error to it; null when there is none. */
async function jsonRpcIdOf(request: Request): Promise<string | number | null> {
  const reader = request.body?.getReader();
  if (!reader) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(read.value);
  }
  try {
    const id: unknown = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown } | null)?.id;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

interface ServerInternals {
  _ondiscover(): { supportedVersions: string[] } & Record<string, unknown>;
  _getRequestHandler(method: string): ((request: unknown, ctx: unknown) => Promise<unknown>) | undefined;
}

/**
 * Two answers of the SDK's (pinned: see package.json) made to say what the specification asks:
 * server/discover lists every revision served, not only the 2026 one; and tools/list, which has a
 * single page, refuses a cursor it never issued (-32602) rather than answering page one again.
 */
function adjustListings(server: McpServer) {
  const inner = server.server as unknown as ServerInternals;
  const discover = inner._ondiscover.bind(inner);
  inner._ondiscover = () => ({ ...discover(), supportedVersions: [...servedProtocolVersions] });
  const listTools = inner._getRequestHandler('tools/list');
  if (!listTools) throw new Error('tools/list is registered with the first tool');
  server.server.setRequestHandler('tools/list', (request, ctx) => {
    if (request.params?.cursor !== undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown cursor ${JSON.stringify(request.params.cursor)}: tools/list has one page and issues no cursor`);
    }
    return listTools(request, ctx) as never;
  });
}

/**
 * Requests that carry an `Origin` (a browser's) are refused unless it is on this server's own host (any
 * port or scheme: a rebinding attack's page is on a host name of the attacker's) or one of the origins
 * an operator allowed (MCP_ALLOWED_ORIGINS), which also get CORS answers. Requests without one
 * (assistants' apps, command lines) pass: the Streamable HTTP transport's DNS-rebinding protection.
 */
function allowedOriginsOnly(publicUrl: string, allowed: readonly string[]): MiddlewareHandler<AppEnv> {
  const ownHost = hostnameOf(publicUrl);
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin === undefined) return next();
    const parsed = URL.parse(origin);
    const own = parsed !== null && /^https?:$/.test(parsed.protocol) && hostnameOf(parsed.href) === ownHost;
    if (!own && !allowed.includes(origin)) {
      const message = `Requests from the web origin ${origin} are refused (DNS-rebinding protection); the server's operator can allow an origin with MCP_ALLOWED_ORIGINS`;
      return c.json(errorBody(publicUrl, 'forbidden', message, { reason: 'origin_not_allowed' }), 403);
    }
    if (own) return next();
    const cors = { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Expose-Headers': 'WWW-Authenticate, Mcp-Protocol-Version, Mcp-Session-Id' };
    if (c.req.method === 'OPTIONS') {
      return c.body(null, 204, {
        ...cors,
        'Access-Control-Allow-Methods': 'GET, POST, DELETE',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-Id',
        'Access-Control-Max-Age': '600',
      });
    }
    await next();
    // The SDK answers with a Response of its own: the CORS headers go on that one.
    c.res = new Response(c.res.body, c.res);
    for (const [name, value] of Object.entries(cors)) c.res.headers.set(name, value);
  };
}
