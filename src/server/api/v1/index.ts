import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env.js';
import { unknownV1Path } from '../../http/middleware/bearer-auth.js';
import { inputLocation, notFound, validationError } from '../../core/errors.js';
import { assertStorableText } from '../../http/validate.js';
import { registerCollections } from './collections/index.js';
import { registerUploadRequests } from './requests/index.js';
import { registerContacts } from './contacts/index.js';
import { registerGetImport } from './imports/get.js';
import { registerResolveLink } from './links/resolve.js';
import { registerGetMe } from './me/get.js';
import { registerGetReferral } from './me/referral.js';
import { openApiDocumentConfig } from './openapi.js';
import { registerTransfers } from './transfers/index.js';
import { registerWebhooks } from './webhooks/index.js';

/** The public API. Each resource module registers its operations here. */
export function v1App() {
  const app = new OpenAPIHono<AppEnv>({
    // zod failures become `400 invalid_request` with every offending field named. A path id that
    // fails its schema names nothing that can exist: `404 not_found`, as for an unknown id.
    defaultHook: (result) => {
      if (!result.success) throw result.target === 'param' ? notFound() : validationError(result.error.issues, result.target);
      assertStorableText(result.data, inputLocation(result.target));
    },
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key (`sk_live_` followed by 43 characters) created in the dashboard, or an OAuth access token. The scopes each operation needs are listed in its security requirement.',
  });

  registerGetMe(app);
  registerGetReferral(app);
  registerTransfers(app);
  registerCollections(app);
  registerUploadRequests(app);
  registerContacts(app);
  registerResolveLink(app);
  registerGetImport(app);
  registerWebhooks(app);

  app.get('/openapi.json', (c) => c.json(app.getOpenAPI31Document(openApiDocumentConfig(c.var.services.config.PUBLIC_URL))));
  // Last, so it answers only what no operation above took.
  app.all('*', unknownV1Path);
  return app;
}
