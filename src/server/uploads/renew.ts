import { Hono } from 'hono';
import type { AppEnv } from '../http/env.js';
import { ApiError } from '../core/errors.js';
import type { Services } from '../services.js';
import { issueUploadToken } from './tokens.js';
import { authorizeUpload, UPLOAD_TOKEN_HEADER, uploadCors } from './tus.js';
import { said } from '../core/sentences.js';

/**
 * `POST /api/uploads/token`: exchanges an upload token that is still valid for a fresh one for the
 * same file. The old token keeps working until its own expiry; an expired one cannot be renewed.
 * A file that has finished uploading needs no token any more (409 `upload_complete`).
 */
export function uploadTokenRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.use('*', uploadCors(services.config.PUBLIC_URL));
  app.options('/', (c) => c.body(null, 204));
  app.post('/', async (c) => {
    const file = await authorizeUpload(c.var.services, c.req.header(UPLOAD_TOKEN_HEADER), null);
    if (file.state !== 'uploading') {
      throw new ApiError('conflict', said({ id: 'api.uploads.fileFinishedUploadingThere', defaultMessage: 'This file has finished uploading; there is nothing left to upload.' }), {
        reason: file.state === 'complete' ? 'upload_complete' : `upload_${file.state}`,
      });
    }
    const issued = await issueUploadToken(services.db, {
      fileId: file.id,
      workspaceId: file.workspaceId,
      now: services.clock.now(),
      ttlSeconds: services.config.UPLOAD_TOKEN_TTL_SECONDS,
    });
    c.header('Cache-Control', 'no-store');
    return c.json({ uploadToken: issued.token, expiresAt: issued.expiresAt.toISOString() });
  });
  return app;
}
