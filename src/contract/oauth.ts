import { z } from '@hono/zod-openapi';

/**
 * The dashboard's consent page for an AI assistant asking for access (OAuth), under
 * /oauth/consent/{uid}: what is asked, and the owner's answer. Not part of the public OpenAPI
 * document (the OAuth endpoints are described by /.well-known/oauth-authorization-server).
 */
export const ConsentDetailsSchema = z.object({
  client: z.object({
    id: z.string(),
    /** As the client calls itself (its registration or metadata document): untrusted text. */
    name: z.string().nullable(),
    uri: z.string().nullable(),
  }),
  /** Where the browser goes back to, and its host, which the page names. */
  redirectUri: z.string(),
  redirectHost: z.string(),
  /** What the token will be for: the MCP server or the API. */
  resource: z.string(),
  /** The scopes asked for, in the order asked. */
  scopes: z.array(z.string()),
});
export type ConsentDetails = z.infer<typeof ConsentDetailsSchema>;

export const ConsentDecisionSchema = z.strictObject({
  approve: z.boolean({ error: 'approve must be true or false' }),
  /** The scopes the owner left ticked: a subset of those asked (anything else is ignored). */
  scopes: z.array(z.string({ error: 'scopes must be scope names' }), { error: 'scopes must be a list' }).max(20).default([]),
});

export const ConsentResultSchema = z.object({
  /** Where the browser goes next (the authorization resumes, then returns to the app). */
  redirectTo: z.string(),
});

/** An assistant the signed-in owner connected: one grant, with what it may do (Settings → Connected apps). */
export const ConnectedAppSchema = z.object({
  /** The grant's id: revoking it ends every token of it on the next request. */
  id: z.string(),
  client: z.object({ id: z.string(), name: z.string().nullable() }),
  resource: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.iso.datetime(),
  /** Its last request with any of its tokens (to the minute), or null before the first. */
  lastUsedAt: z.iso.datetime().nullable(),
});
export type ConnectedApp = z.infer<typeof ConnectedAppSchema>;
export const ConnectedAppsSchema = z.object({ apps: z.array(ConnectedAppSchema) });
