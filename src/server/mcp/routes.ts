import type { HttpBindings } from '@hono/node-server';
import { hostHeaderValidation } from '@modelcontextprotocol/hono';
import { createMcpHandler, McpServer, type AuthInfo, type CallToolResult, type McpRequestContext } from '@modelcontextprotocol/server';
import { z } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import { ErrorSchema } from '../../contract/errors.js';
import { bearerToken, resolveCaller } from '../auth/credentials.js';
import { errorBody } from '../core/errors.js';
import type { AppEnv } from '../http/env.js';
import { hostnameOf } from '../http/headers.js';
import { oauthResources } from '../oauth/provider.js';
import type { Services } from '../services.js';
import { toolInput, toolOutput, type ToolInput } from './schemas.js';
import { tools, type Tool } from './tools.js';

/** What the /mcp request resolved, handed to the tools through the SDK's per-request auth info. */
interface CallContext {
  env: HttpBindings;
  requestId: string;
}

const MAX_BODY_BYTES = 1024 * 1024;

/** POST tools take an optional idempotency key (never derived from the JSON-RPC id: those restart with every connection). */
const idempotencyArgument = {
  idempotencyKey: z
    .string()
    .optional()
    .openapi({ description: 'Optional: the same key again (within 24 hours, with the same arguments) replays the first answer instead of acting twice.' }),
};

/** The API's Error body as an MCP tool error: its code and message as text for the model, and the object itself. */
function toolError(body: unknown, status: number, publicUrl: string): CallToolResult {
  const parsed = ErrorSchema.safeParse(body);
  const error = parsed.success ? parsed.data : errorBody(publicUrl, 'internal_error', `The server answered ${status}`, {});
  return { isError: true, content: [{ type: 'text', text: `${error.error.code}: ${error.error.message}` }], structuredContent: error as Record<string, unknown> };
}

/**
 * /mcp: the MCP server for AI assistants (Streamable HTTP, stateless: any instance answers any request,
 * in both protocol revisions, 2025-11-25 with its initialize handshake and 2026-07-28 with
 * server/discover). A bearer credential is required: an OAuth token issued for /mcp (or an API key);
 * without one the answer is 401 pointing at the RFC 9728 metadata, where an assistant finds how to get one.
 * Each tool call is the /api/v1 request it stands for, made in process with the caller's own token.
 */
export function mountMcp(app: Hono<AppEnv>, services: Services) {
  const publicUrl = services.config.PUBLIC_URL;
  const mcpResource = oauthResources(publicUrl).mcp;
  const metadataUrl = `${publicUrl}/.well-known/oauth-protected-resource/mcp`;

  const prepared = tools().map((tool) => ({
    tool,
    input: toolInput(tool.operation.request, tool.operation.method === 'POST' ? idempotencyArgument : {}),
    output: tool.operation.success ? toolOutput(tool.operation.success) : undefined,
  }));

  async function call(tool: Tool, input: ToolInput, args: Record<string, unknown>, auth: AuthInfo): Promise<CallToolResult> {
    const context = auth.extra?.parcel as CallContext | undefined;
    const headers: Record<string, string> = { authorization: `Bearer ${auth.token}`, accept: 'application/json' };
    if (context) headers['x-request-id'] = context.requestId;
    let path = tool.operation.path;
    const query = new URLSearchParams();
    const body: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(args)) {
      if (value === undefined) continue;
      if (name === 'idempotencyKey') headers['Idempotency-Key'] = String(value);
      else if (input.parts[name] === 'params') path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
      else if (input.parts[name] === 'query') query.set(name, String(value));
      else if (input.parts[name] === 'body') body[name] = value;
    }
    const init: RequestInit = { method: tool.operation.method, headers };
    if (tool.operation.request.body) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await app.request(`/api/v1${path}${query.size > 0 ? `?${query}` : ''}`, init, context?.env);
    const text = await response.text();
    const json: unknown = text ? JSON.parse(text) : {};
    if (!response.ok) return toolError(json, response.status, publicUrl);
    return { content: [{ type: 'text', text }], structuredContent: json as Record<string, unknown> };
  }

  const factory = (request: McpRequestContext) => {
    const server = new McpServer({ name: 'parcel', version: '1.0.0' }, { capabilities: { tools: { listChanged: false } } });
    for (const { tool, input, output } of prepared) {
      server.registerTool(
        tool.name,
        {
          title: tool.operation.summary,
          description: tool.operation.description,
          inputSchema: input,
          ...(output ? { outputSchema: output } : {}),
          annotations: { title: tool.operation.summary, ...tool.annotations },
        },
        async (args: unknown, ctx) => {
          const auth = ctx.http?.authInfo ?? request.authInfo;
          if (!auth) return toolError(errorBody(publicUrl, 'unauthorized', 'Missing or invalid credentials', {}), 401, publicUrl);
          return call(tool, input, args as Record<string, unknown>, auth);
        },
      );
    }
    return server;
  };
  const handler = createMcpHandler(factory, {
    legacy: 'stateless',
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (error: Error) => services.log.warn({ err: error }, 'MCP request failed'),
  });

  // DNS rebinding: only this server's own host may address /mcp.
  app.use('/mcp', hostHeaderValidation([hostnameOf(publicUrl)]));
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
    const authInfo: AuthInfo = {
      token,
      clientId: caller.credentialId,
      scopes: caller.scopes,
      resource: new URL(mcpResource),
      extra: { parcel: { env: c.env, requestId: c.var.requestId } satisfies CallContext },
    };
    return handler.fetch(c.req.raw, { authInfo });
  });
}
