import type { z } from 'zod';
import type { PlanNameSchema } from '../../contract/me.js';
import type { MemberRole } from '../../contract/scope-names.js';

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
  /** An API key's name (how its transfers show their sender); null for other credentials. */
  credentialName: string | null;
  /** The member acting (`member.userId`), or null for an API key. */
  userId: string | null;
  /** The person behind a dashboard or OAuth token; null for an API key. */
  member: { userId: string; name: string | null; email: string } | null;
  /**
   * What the caller may do in the workspace (docs/teams.md): the member's role, read with the
   * credential on every request; an API key acts as the workspace's owner (spec, Authentication rule 5).
   */
  role: MemberRole;
  scopes: string[];
  canEmail: boolean;
  /** An OAuth token's audience (RFC 8707): the resource it was issued for, the MCP server or the API. */
  audience?: string;
}
