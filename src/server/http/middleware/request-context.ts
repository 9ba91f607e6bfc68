import { randomUUID } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { MiddlewareHandler } from 'hono';
import { loggablePath } from '../loggable-path.js';
import type { AppEnv } from '../env.js';
import type { Services } from '../../services.js';

const INCOMING_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Gives every request an id (a proxy's, if it sent a sane one), puts it on the `X-Request-Id`
 * response header and on every log line written while the request runs, and logs one line per
 * request.
 *
 * The id reaches those lines through the request's own `services`, whose `log` is a child logger
 * that carries it: everything a request does gets its services from the context. (Not through an
 * AsyncLocalStorage: on Node 20 it hooks every promise of every request, about 8 % of the CPU of an
 * API load.)
 */
export function requestContextMiddleware(services: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    const log = services.log.child({ requestId });
    c.set('services', { ...services, log });
    c.set('requestId', requestId);
    const started = performance.now();
    await next();
    c.res.headers.set('X-Request-Id', requestId);
    // A handler that wrote the Node response itself (downloads, previews, the OAuth provider) sent its own status.
    const status = c.res === RESPONSE_ALREADY_SENT ? (c.env as HttpBindings).outgoing.statusCode : c.res.status;
    log.info({ method: c.req.method, path: loggablePath(c.req.path), status, ms: Math.round(performance.now() - started) }, 'request');
  };
}
