import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/connection.js';
import { collections, workspaces } from '../db/schema/index.js';

/** A request to a workspace's own domain: the collection its path names, or null for every other path (a 404 page). */
export interface CustomDomainPage {
  workspaceId: string;
  collection: { collectionId: string; slug: string } | null;
}

// Slugs are base62 today; the wider class only spares a query for paths that cannot be one (`/a/b`, `/x.png`).
const slugPath = /^\/([A-Za-z0-9_-]{1,128})\/?$/;

/**
 * What `host` (lower-case, no port) serves at `path` when it is a workspace's custom domain: only `/<slug>` of a
 * collection of that same workspace with `customLink` on. Null when the host is nobody's domain. One indexed query.
 */
export async function customDomainPage(db: Database, host: string, path: string): Promise<CustomDomainPage | null> {
  const slug = slugPath.exec(path)?.[1];
  if (slug === undefined) {
    const workspaceId = await workspaceOfDomain(db, host);
    return workspaceId ? { workspaceId, collection: null } : null;
  }
  const [row] = await db
    .select({ workspaceId: workspaces.id, collectionId: collections.id, slug: collections.slug })
    .from(workspaces)
    // Joining on the workspace keeps another workspace's collection (same slug space) off this domain.
    .leftJoin(collections, and(eq(collections.workspaceId, workspaces.id), eq(collections.slug, slug), eq(collections.customLink, true)))
    .where(eq(workspaces.customDomain, host))
    .limit(1);
  if (!row) return null;
  return { workspaceId: row.workspaceId, collection: row.collectionId && row.slug ? { collectionId: row.collectionId, slug: row.slug } : null };
}

/** The workspace whose own domain `host` (lower-case, no port) is, or null when it is nobody's. */
export async function workspaceOfDomain(db: Database, host: string): Promise<string | null> {
  const [ws] = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.customDomain, host)).limit(1);
  return ws?.id ?? null;
}
