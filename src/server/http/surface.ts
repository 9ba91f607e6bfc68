import { OpenAPIHono, z } from '@hono/zod-openapi';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { ErrorSchema } from '../../contract/errors.js';
import type { AppEnv } from './env.js';
import { parseJsonBody, parseQuery, pathId } from './validate.js';

/**
 * The one way to build a route of the surfaces outside /api/v1: the dashboard's API (session cookie)
 * and the public pages' API (a link's slug is the capability). As `v1Route` does for v1, a route
 * declares who may call it (its auth kind), its input as contract schemas, and its answer; the
 * builder applies the auth kind's checks, parses the input (400 `invalid_request` naming the field,
 * 404 for an id that cannot exist) and records the route in the surface's own OpenAPI document,
 * served at `<mount>/openapi.json`. Handlers get the parsed input and call operations.
 */

/** An auth kind: the checks a route's caller passes, and what the document says of them. */
export interface AuthKind {
  middleware: MiddlewareHandler<AppEnv>[];
  description: string;
  /** The document's security requirement (`[]`: none), naming the surface's security schemes. */
  security: Record<string, string[]>[];
}

type Schema = z.ZodType;
type SecurityScheme = { type: 'apiKey'; in: 'cookie' | 'header'; name: string; description?: string };
type Output<S> = S extends Schema ? z.output<S> : undefined;

/** `slug` | `id` from `/:slug/submissions/:id`. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}` ? Name | PathParams<`/${Rest}`> : P extends `${string}:${infer Name}` ? Name : never;

export interface SurfaceRouteConfig<A extends string, P extends string, Q extends Schema | undefined, B extends Schema | undefined> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Hono's syntax (`/keys/:id`), relative to the group. */
  path: P;
  auth: A;
  summary: string;
  description?: string;
  /** Path parameters that are resource ids: `[prefix, what]`, 404 `what` when one cannot exist. */
  ids?: Partial<Record<PathParams<P>, readonly [prefix: string, what: string]>>;
  query?: Q;
  body?: B;
  /** An empty body reads as `{}`. */
  optionalBody?: boolean;
  /** The success answer: its status, and its JSON schema where the contract has one. */
  success: { status: 200 | 201 | 202 | 204 | 303; schema?: Schema; description?: string };
}

export interface SurfaceInput<P extends string, Q, B> {
  /** Every path parameter; those declared in `ids` checked. */
  params: Record<PathParams<P>, string>;
  query: Output<Q>;
  body: Output<B>;
}

interface Shared<A extends string> {
  app: Hono<AppEnv>;
  document: OpenAPIHono<AppEnv>;
  auth: Record<A, AuthKind>;
}

const errorAnswer = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } });
/** `getVaultItemsIdDownload` from GET /vault/items/:id/download: unique, as a method and path are. */
const operationId = (method: string, path: string) =>
  method + path.split(/[/-]/).filter(Boolean).map((part) => part.replace(/^:/, '').replace(/^./, (ch) => ch.toUpperCase())).join('');
const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

export class Surface<A extends string> {
  private constructor(
    private readonly shared: Shared<A>,
    private readonly prefix: string,
  ) {}

  /** A surface with its auth kinds (what each route names as `auth`) and the security schemes they name. */
  static create<A extends string>(auth: Record<A, AuthKind>, securitySchemes: Record<string, SecurityScheme> = {}): Surface<A> {
    const document = new OpenAPIHono<AppEnv>();
    for (const [name, scheme] of Object.entries(securitySchemes)) document.openAPIRegistry.registerComponent('securitySchemes', name, scheme);
    return new Surface({ app: new Hono<AppEnv>(), document, auth }, '');
  }

  /** The Hono app to mount. */
  get app(): Hono<AppEnv> {
    return this.shared.app;
  }

  /** Routes under `prefix` (middleware that every one of them shares goes on `app.use`). */
  group(prefix: string): Surface<A> {
    return new Surface(this.shared, `${this.prefix}${prefix}`);
  }

  /** `app.use` for this group: `*` is every path under it. */
  use(...middleware: MiddlewareHandler<AppEnv>[]): this {
    // Hono's `/x/*` matches `/x` too.
    this.shared.app.use(this.prefix === '' ? '*' : `${this.prefix}/*`, ...middleware);
    return this;
  }

  route<const P extends string, Q extends Schema | undefined = undefined, B extends Schema | undefined = undefined>(
    config: SurfaceRouteConfig<A, P, Q, B>,
    handler: (c: Context<AppEnv>, input: SurfaceInput<P, Q, B>) => Response | Promise<Response>,
  ): this {
    const path = `${this.prefix}${config.path}`.replace(/\/$/, '') || '/';
    const auth = this.shared.auth[config.auth];
    const ids = (config.ids ?? {}) as Record<string, readonly [string, string] | undefined>;
    const names = [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
    this.shared.app.on([config.method.toUpperCase()], [path], ...auth.middleware, async (c) => {
      const input = {
        // An id that cannot exist is 404 before anything else is looked at, as in /api/v1.
        params: Object.fromEntries(names.map((name) => [name, ids[name] ? pathId(c, name, ids[name][0], ids[name][1]) : (c.req.param(name) ?? '')])) as Record<PathParams<P>, string>,
        query: (config.query ? parseQuery(c, config.query) : undefined) as Output<Q>,
        body: (config.body ? await parseJsonBody(c, config.body, { optional: config.optionalBody }) : undefined) as Output<B>,
      };
      return handler(c, input);
    });
    this.document(path, config, auth);
    return this;
  }

  /** `GET /openapi.json`: the surface's document (internal: the app's own contract, not a public API), its server at `${PUBLIC_URL}${mount}`. */
  serveDocument(info: { title: string; description: string; mount: string }): this {
    // Built on the first request (every route is registered by then), once: PUBLIC_URL does not change.
    let built: unknown;
    this.shared.app.get('/openapi.json', (c) => {
      built ??= this.shared.document.getOpenAPI31Document({
        openapi: '3.1.0',
        info: { title: info.title, version: '1', description: info.description },
        servers: [{ url: `${c.var.services.config.PUBLIC_URL}${info.mount}` }],
      });
      return c.json(built);
    });
    return this;
  }

  private document<P extends string, Q extends Schema | undefined, B extends Schema | undefined>(path: string, config: SurfaceRouteConfig<A, P, Q, B>, auth: AuthKind) {
    const params = [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
    const { status, schema, description } = config.success;
    this.shared.document.openAPIRegistry.registerPath({
      method: config.method,
      path: openApiPath(path),
      operationId: operationId(config.method, path),
      summary: config.summary,
      security: auth.security,
      description: `${config.description ?? ''}\n\n${auth.description}`.trim(),
      request: {
        ...(params.length > 0 ? { params: z.object(Object.fromEntries(params.map((p) => [p, z.string()]))) } : {}),
        ...(config.query ? { query: config.query as unknown as z.ZodObject } : {}),
        ...(config.body ? { body: { required: !config.optionalBody, content: { 'application/json': { schema: config.body } } } } : {}),
      },
      responses: {
        [status]: schema ? { description: description ?? 'Success.', content: { 'application/json': { schema } } } : { description: description ?? 'Success.' },
        ...(config.query || config.body ? { 400: errorAnswer('`invalid_request`: a field of the input is invalid (named in `details.fields`).') } : {}),
        ...(auth.security.length > 0 ? { 401: errorAnswer('`unauthorized`: no valid credential of this kind.') } : {}),
        ...(params.length > 0 ? { 404: errorAnswer('`not_found`: nothing of this kind by that name or id.') } : {}),
        429: errorAnswer('`rate_limited`: see `Retry-After`.'),
      },
    });
  }
}
