import { createRoute, z, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { ErrorSchema } from '../../../contract/errors.js';
import type { AppEnv } from '../../http/env.js';
import { bearerAuth } from '../../http/middleware/bearer-auth.js';
import { idempotency } from '../../http/middleware/idempotency.js';
import { requirePaidPlan } from '../../http/middleware/require-plan.js';
import { requireScope, type ScopeRule } from '../../http/middleware/require-scope.js';
import { requireRole } from '../../workspaces/members.js';

/**
 * Who in a workspace may call an operation (docs/teams.md): any member (the default); its owner and
 * admins only; or any member on a transfer they sent (`own`: the operation checks it once it has the
 * transfer; the owner and admins act on every one). An API key acts as the owner.
 */
export type RoleRule = 'member' | 'admin' | 'own';

/** What every v1 operation declares besides its OpenAPI shape: who may call it. */
export interface V1Access {
  scope: ScopeRule;
  /** Answers `402 upgrade_required` on the free plan, including after a paid plan lapses. */
  paidOnly?: boolean;
  role?: RoleRule;
}

const roleAccess: Record<RoleRule, string> = {
  member: 'Any member of the workspace.',
  admin: 'The workspace’s owner and admins (and API keys, which act as the owner).',
  own: 'Any member, on a transfer they sent; the owner, the admins and API keys on every one.',
};

const roleRefusal: Record<RoleRule, string | null> = {
  member: null,
  admin: '`forbidden` (reason `role_required`): the member is not the workspace’s owner or an admin.',
  own: '`forbidden` (reason `not_your_transfer`): a member changes, sends, revokes, downloads and reads the receipts of their own transfers only.',
};

/** The owner and admins only: checked on the credential's member, whatever its scopes. */
const requireAdminRole: MiddlewareHandler<AppEnv> = async (c, next) => {
  requireRole(c.var.caller, 'admin');
  await next();
};

export interface V1Operation extends V1Access {
  role: RoleRule;
  method: string;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** The contract's schemas of the request's parts (as the route validates them) and of its success answer. */
  request: { params?: z.ZodObject; query?: z.ZodObject; body?: z.ZodType };
  success: z.ZodType | undefined;
}

/** Every v1 operation with its access rule, so tests can check the whole scope and plan matrix. */
export const v1Operations: V1Operation[] = [];

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorSchema } },
});

// The object key must equal the parameter's name, or the OpenAPI generator refuses the document.
const idempotencyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .optional()
    .openapi({
      param: { name: 'Idempotency-Key', in: 'header' },
      description:
        '1 to 255 printable ASCII characters, no spaces (a UUID works). Remembered 24 hours per workspace and bound to method, path and exact body: a repeat of a success replays it with `Idempotent-Replayed: true`.',
      example: '3f1c2a9e-7b4d-4f0e-9a51-2c8d6e0b7a14',
    }),
});

const ownDescription = (r: unknown) => (r && typeof r === 'object' && 'description' in r ? String(r.description) : undefined);

/** A route's own 409 meaning (such as "already exists") is kept beside the idempotency one. */
function conflictDescription(method: string, own: string | undefined): string {
  const idempotent = '`conflict` with `details.reason` `idempotency_in_progress` or `idempotency_key_reused`: the Idempotency-Key is in use by a running request or was used for another request.';
  if (method !== 'post') return own ?? '`conflict`.';
  return own ? `${own}\n\nAlso ${idempotent}` : idempotent;
}

/** A route's own meaning of a shared error status (such as `password_required` for a 401) is kept before the shared one. */
function withOwn(responses: RouteConfig['responses'], status: number, shared: string) {
  const own = ownDescription(responses[status]);
  return errorResponse(own ? `${own}\n\nAlso ${shared}` : shared);
}

/**
 * An optional JSON body may be left empty, whether or not the request says `Content-Type:
 * application/json`: it reads as no body (`{}`), as it does without the header. The validator alone
 * would try to parse the empty text as JSON and refuse it.
 */
const emptyOptionalBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  // Hono parses JSON from the cached text of the body, so the empty text is what is replaced.
  if (c.req.header('content-type') && (await c.req.text()).trim() === '') (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve('{}');
  await next();
};

type V1RouteConfig = Omit<RouteConfig, 'security' | 'middleware'> & V1Access & { operationId: string; tags: string[] };

/**
 * Builds a v1 route: authentication, rate limits, the scope and plan checks and, for POST,
 * idempotency, in that order; and the OpenAPI description of all of it, including the shared
 * Error responses, so that "every 4xx and 5xx uses the Error schema" holds without effort.
 */
export function v1Route<const R extends V1RouteConfig>(config: R) {
  const { scope, paidOnly = false, role = 'member', ...route } = config;
  const middleware: MiddlewareHandler<AppEnv>[] = [bearerAuth, requireScope(scope)];
  if (role === 'admin') middleware.push(requireAdminRole);
  if (paidOnly) middleware.push(requirePaidPlan);
  if (route.method === 'post') middleware.push(idempotency);
  if (route.request?.body && !route.request.body.required) middleware.push(emptyOptionalBody);
  const successResponse = (route.responses[200] ?? route.responses[201]) as { content?: Record<string, { schema?: z.ZodType }> } | undefined;
  const body = (route.request?.body as { content?: Record<string, { schema?: z.ZodType }> } | undefined)?.content?.['application/json']?.schema;
  v1Operations.push({
    method: route.method.toUpperCase(),
    path: route.path,
    operationId: route.operationId,
    scope,
    paidOnly,
    role,
    summary: route.summary ?? route.operationId,
    description: route.description ?? '',
    request: {
      params: route.request?.params as z.ZodObject | undefined,
      query: route.request?.query as z.ZodObject | undefined,
      ...(body ? { body } : {}),
    },
    success: successResponse?.content?.['application/json']?.schema,
  });

  const access = [
    scope === 'any' ? 'Any scope.' : `Scope: \`${scope}\`${scope.endsWith(':read') ? ` (or \`${scope.replace(':read', ':write')}\`)` : ''}.`,
    paidOnly ? 'Paid plan.' : 'Free plan allowed.',
    `Role: ${roleAccess[role]}`,
  ].join(' ');
  const refusal = roleRefusal[role];
  const request =
    route.method === 'post' ? { ...route.request, headers: route.request?.headers ?? idempotencyHeader } : route.request;
  return createRoute({
    ...route,
    request,
    description: `${route.description ?? ''}\n\n${access}`.trim(),
    security: [{ bearerAuth: scope === 'any' ? [] : [scope] }],
    middleware,
    'x-required-scope': scope,
    'x-plan': paidOnly ? 'paid' : 'free',
    'x-role': role,
    responses: {
      ...route.responses,
      400: withOwn(route.responses, 400, '`invalid_request`: a field, `limit`, `cursor` or `Idempotency-Key` is invalid. Text may hold any character but NUL (U+0000), which is refused naming its field.'),
      401: withOwn(route.responses, 401, '`unauthorized`: the credential is missing, malformed, unknown, revoked or expired.'),
      // A paid-only operation may answer 402 for a reason of its own too (such as `out_of_credit`).
      ...(paidOnly ? { 402: withOwn(route.responses, 402, '`upgrade_required`: the workspace is not on a paid plan.') } : {}),
      403: withOwn(route.responses, 403, `${refusal ? `${refusal}\n\nAlso ` : ''}\`insufficient_scope\`: the credential lacks the scope.`),
      404: withOwn(route.responses, 404, '`not_found`: no such resource in this workspace, or an id that cannot name one.'),
      ...(route.method === 'post' || route.responses[409]
        ? { 409: errorResponse(conflictDescription(route.method, ownDescription(route.responses[409]))) }
        : {}),
      ...(route.request?.body ? { 413: errorResponse('`payload_too_large`: the JSON body is larger than 1 MiB.'), 415: errorResponse('`unsupported_media_type`: the body is not `application/json`.') } : {}),
      429: withOwn(route.responses, 429, '`rate_limited`: a rate limit or the monthly allowance is exhausted; see `Retry-After`.'),
      500: errorResponse('`internal_error`.'),
      503: errorResponse('`unavailable`: the service cannot reach its database or storage for a moment (or is starting or stopping); retry after `Retry-After` seconds.'),
    },
  } as RouteConfig) as unknown as R;
}
