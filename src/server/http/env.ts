import type { HttpBindings } from '@hono/node-server';
import type { Plan } from '../workspaces/plan.js';
import type { Services } from '../services.js';
import type { Caller } from '../core/caller.js';

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
