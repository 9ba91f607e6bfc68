import type { OpenAPIHono } from '@hono/zod-openapi';
import { ErrorSchema } from '../../../../contract/errors.js';
import { ResolveLinkRequestSchema, ResolvedLinkSchema } from '../../../../contract/links.js';
import type { AppEnv } from '../../../http/env.js';
import { resolveSharedLink } from './shared-link-url.js';
import { v1Route } from '../route.js';
import { json, jsonBody } from '../transfers/params.js';

export const resolveLinkRoute = v1Route({
  method: 'post',
  path: '/links/resolve',
  operationId: 'resolveLink',
  tags: ['Links'],
  summary: 'Download links for a link shared with you',
  description: [
    "Turns a shared link of this service, from any workspace, into signed download URLs: a transfer's `/t/<slug>` (a recipient's personal link with its `r` parameter too), a collection's `/c/<slug>`, or a collection's custom-domain link `https://<domain>/<slug>`. The URL is only parsed, never fetched: a URL that is not a link of this service answers `400 invalid_request` naming `url`, and no request leaves the service for it.",
    'The link is opened exactly as its page opens it. For a transfer this starts a visit of the link: downloads through the returned URLs create receipts (attributed to the recipient when the link is a personal one), count once toward `downloadCount` and `maxDownloads`, and emit `transfer.downloaded`, as on the recipient page. For a collection the URLs cover the whole collection.',
    'Wrong passwords are limited per link and per credential (10 per 15 minutes), as the public unlock is per address. Your own rate limits apply, not the anonymous ones.',
  ].join('\n\n'),
  scope: 'any',
  request: jsonBody(ResolveLinkRequestSchema),
  responses: {
    200: json(ResolvedLinkSchema, 'Signed download URLs for what the link shares'),
    400: json(
      ErrorSchema,
      '`invalid_request` naming `url`: the URL is not a shared link of this service (another host, another path, a scheme other than http(s), longer than 2048 characters).',
    ),
    401: json(ErrorSchema, "`password_required`: the link has a password and none was given. `wrong_password`: the password given is not the link's."),
    403: json(ErrorSchema, '`guests_only`: the collection is shared only with invited guests (a credential is never a guest).'),
    404: json(ErrorSchema, '`not_found`: no transfer or collection has this link (never sent, or a draft discarded).'),
    409: json(
      ErrorSchema,
      '`e2ee_unsupported`: the transfer is end-to-end encrypted; only a browser holding the key can open it. `files_arriving`: the transfer was sent while URL imports of it still run, and goes out when the last one lands; nothing can be downloaded yet, so ask again after `Retry-After` seconds.',
    ),
    410: json(
      ErrorSchema,
      '`link_unavailable`: the link expired, was revoked, reached its download limit, was removed as infected, its workspace is suspended, or its collection was deleted; `details.reason` is `expired`, `revoked`, `limit_reached`, `infected`, `suspended` or `deleted`.',
    ),
    429: json(ErrorSchema, '`rate_limited`: too many wrong passwords for this link from this credential, or your own rate limit; see `Retry-After`.'),
  },
});

export function registerResolveLink(app: OpenAPIHono<AppEnv>) {
  app.openapi(resolveLinkRoute, async (c) => {
    return c.json(await resolveSharedLink(c.var.services, c.var.caller, c.req.valid('json')), 200);
  });
}
