import { randomUUID } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { MiddlewareHandler } from 'hono';
import { requestContext } from '../../logger.js';
import { loggablePath } from '../loggable-path.js';
import type { AppEnv } from '../env.js';
import type { Services } from '../../services.js';

const INCOMING_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Gives every request an id (a proxy's, if it sent a sane one), puts it on every log line written
 * while the request runs and on the `X-Request-Id` response header, and logs one line per request.
 */
export function requestContextMiddleware(services: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    c.set('services', services);
    c.set('requestId', requestId);
    const started = performance.now();
    await requestContext.run({ requestId }, async () => {
      await next();
      c.res.headers.set('X-Request-Id', requestId);
      // A handler that wrote the Node response itself (downloads, previews, the OAuth provider) sent its own status.
      const status = c.res === RESPONSE_ALREADY_SENT ? (c.env as HttpBindings).outgoing.statusCode : c.res.status;
      services.log.info(
        { method: c.req.method, path: loggablePath(c.req.path), status, ms: Math.round(performance.now() - started) },
        'request',
      );
    });
  };
}
