import type { HttpBindings } from '@hono/node-server';
import type { Plan } from '../workspaces/plan.js';
import type { Services } from '../services.js';

/** Who is calling /api/v1, resolved from the bearer credential. */
export interface Caller {
  workspaceId: string;
  workspaceName: string;
  customDomain: string | null;
  plan: Plan;
  /** Which credential: an API key, a dashboard token minted from a session, or an OAuth access token. */
  via: 'key' | 'session' | 'oauth';
  credentialId: string;
  userId: string | null;
  scopes: string[];
  canEmail: boolean;
}

/** Who is signed in to the dashboard, resolved from the session cookie (dashboard routes only). */
export interface SignedInUser {
  userId: string;
  email: string;
  /** Runs this server: sees the Admin page. */
  isOperator: boolean;
  workspaceId: string;
  workspaceName: string;
  plan: Plan;
  planUntil: Date | null;
  sessionHash: string;
  sessionExpiresAt: Date;
}

export interface AppEnv {
  Bindings: HttpBindings;
  Variables: {
    services: Services;
    requestId: string;
    caller: Caller;
    user: SignedInUser;
  };
}
