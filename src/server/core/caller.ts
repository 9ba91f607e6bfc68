import type { z } from 'zod';
import type { PlanNameSchema } from '../../contract/me.js';

/**
 * Who is acting: resolved from a bearer credential for /api/v1 (an API key, a dashboard token
 * minted from a session, or an OAuth access token). Domain operations take it instead of a request,
 * so the dashboard, the public pages and the MCP server call them the same way.
 */
export interface Caller {
  workspaceId: string;
  workspaceName: string;
  customDomain: string | null;
  plan: z.infer<typeof PlanNameSchema>;
  /** Which credential: an API key, a dashboard token minted from a session, or an OAuth access token. */
  via: 'key' | 'session' | 'oauth';
  credentialId: string;
  userId: string | null;
  scopes: string[];
  canEmail: boolean;
  /** An OAuth token's audience (RFC 8707): the resource it was issued for, the MCP server or the API. */
  audience?: string;
}
