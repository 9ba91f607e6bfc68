import { eq, isNull } from 'drizzle-orm';
import { ApiError } from '../core/errors.js';
import type { Database } from '../db/connection.js';
import { workspaces } from '../db/schema/index.js';
import { said } from '../core/sentences.js';

/**
 * Whether a workspace's credentials work: it exists and the operator has not disabled it. Every
 * kind of credential asks this one question when it is resolved (API keys, dashboard and OAuth
 * tokens, dashboard sessions, upload tokens, a URL import before each part, the public links and
 * their signed download URLs), so disabling a workspace stops all of them at the next request; a
 * deleted workspace has no row, and its credentials went with it.
 */
export const isActiveWorkspace = (ws: { disabledAt: Date | null }) => ws.disabledAt === null;

/** The same rule as a condition on a query that joins `workspaces`. */
export const activeWorkspace = () => isNull(workspaces.disabledAt);

/** The workspace with this id is active (false when there is no such workspace). */
export async function isWorkspaceActive(db: Pick<Database, 'select'>, workspaceId: string): Promise<boolean> {
  const [row] = await db.select({ disabledAt: workspaces.disabledAt }).from(workspaces).where(eq(workspaces.id, workspaceId));
  return row !== undefined && isActiveWorkspace(row);
}

export const WORKSPACE_DISABLED_MESSAGE = 'This workspace has been disabled by the operator of this server';
/** WORKSPACE_DISABLED_MESSAGE as a sentence of an answer. */
export const workspaceDisabled = () => said({ id: 'api.workspaces.disabled', defaultMessage: 'This workspace has been disabled by the operator of this server' });

/** 403 `forbidden` (reason `workspace_disabled`) for a genuine credential of a workspace that is not active. */
export function refuseInactiveWorkspace(ws: { disabledAt: Date | null }) {
  if (!isActiveWorkspace(ws)) throw new ApiError('forbidden', workspaceDisabled(), { reason: 'workspace_disabled' });
}
