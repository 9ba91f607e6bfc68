import { z } from '@hono/zod-openapi';
import { DownloadLinksSchema } from './transfers.js';

/**
 * Resolving a shared link (`POST /api/v1/links/resolve`): an integrator who was sent a link of this
 * service (a transfer's `/t/<slug>`, possibly a recipient's personal `?r=` link, or a collection's
 * `/c/<slug>` or custom-domain `https://<domain>/<slug>`) turns it into signed download URLs, from
 * any workspace's key. The link is opened exactly as its recipient page opens it: same password
 * rule, same availability checks, and a transfer's downloads count as a visit of the link.
 */

export const RESOLVE_URL_MAX_LENGTH = 2048;

export const ResolveLinkRequestSchema = z
  .object({
    url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .max(RESOLVE_URL_MAX_LENGTH)
      .openapi({
        description:
          "The shared link as it was sent: `<PUBLIC_URL>/t/<slug>` (with or without the `r` parameter of a recipient's personal link), `<PUBLIC_URL>/c/<slug>`, or `https://<workspace domain>/<slug>`. It is parsed, never fetched: no request leaves the service for it. Anything that is not a link of this service is `400 invalid_request` naming `url`.",
        example: 'https://files.example.com/t/5mQ2vX9kLtB7nRw3LzP0aD',
      }),
    password: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({ description: "The link's password, when it has one. Ignored for a link without a password.", example: 'correct horse' }),
  })
  .openapi('ResolveLinkRequest');

export const ResolvedLinkSchema = DownloadLinksSchema.extend({
  kind: z.enum(['transfer', 'collection']).openapi({ description: 'What the link shares.' }),
  title: z.string().nullable().openapi({ description: "The transfer's or collection's title, as its page shows it." }),
}).openapi('ResolvedLink', {
  description:
    "Signed, resumable download URLs for everything the link shares, with each file's `crc32`, and one for the zip of them. For a transfer they belong to a new visit of the link, exactly as if its recipient page had been opened: downloading through them creates receipts (attributed to the recipient of a personal link), counts once toward `downloadCount` and `maxDownloads`, and emits `transfer.downloaded`. A visit's URLs work for 12 hours (never past the transfer's expiry). For a collection they cover the whole collection, work for an hour, and stop working as soon as its visibility or password changes.",
});

export type ResolveLinkRequest = z.infer<typeof ResolveLinkRequestSchema>;
export type ResolvedLink = z.infer<typeof ResolvedLinkSchema>;
