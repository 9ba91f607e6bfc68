import { and, eq } from 'drizzle-orm';
import { ApiError } from '../core/errors.js';
import type { Database } from '../db/connection.js';
import { collectionFormerSlugs, collections, deletedCollectionLinks } from '../db/schema/index.js';
import { said } from '../core/sentences.js';

/**
 * Readable links: a collection's owner renames its slug (`/c/spring-lookbook`). A slug is one namespace across
 * current slugs, former slugs of collections that exist, and the links of deleted collections (which say "deleted"
 * rather than open someone else's collection), except that a workspace may take back a name its own deleted
 * collection had. Every former slug keeps opening the collection, its pages redirecting to the current one.
 */

type Tx = Pick<Database, 'select' | 'insert' | 'delete' | 'update'>;

const taken = () =>
  new ApiError('conflict', said({ id: 'api.collections.linkNameTakenPick', defaultMessage: 'That link name is taken: pick another.' }), { reason: 'slug_taken', fields: [{ path: 'slug', message: 'Taken already' }] });

/**
 * Moves the collection (locked by the caller's transaction) from its current slug to `slug`, keeping the current one
 * as a former slug. Taking back a former slug of its own is allowed; anything another collection holds or held is a
 * `409 conflict` naming `slug`. The unique key on `collections.slug` settles a race between two renames.
 */
export async function renameCollectionSlug(tx: Tx, collection: { id: string; workspaceId: string; slug: string }, slug: string, now: Date): Promise<void> {
  if (slug === collection.slug) return;
  const [current] = await tx.select({ id: collections.id }).from(collections).where(eq(collections.slug, slug));
  if (current) throw taken();
  const [former] = await tx.select({ collectionId: collectionFormerSlugs.collectionId }).from(collectionFormerSlugs).where(eq(collectionFormerSlugs.slug, slug));
  if (former && former.collectionId !== collection.id) throw taken();
  const [deleted] = await tx.select({ workspaceId: deletedCollectionLinks.workspaceId }).from(deletedCollectionLinks).where(eq(deletedCollectionLinks.slug, slug));
  if (deleted && deleted.workspaceId !== collection.workspaceId) throw taken();
  if (deleted) await tx.delete(deletedCollectionLinks).where(eq(deletedCollectionLinks.slug, slug));
  if (former) await tx.delete(collectionFormerSlugs).where(eq(collectionFormerSlugs.slug, slug));
  await tx.insert(collectionFormerSlugs).values({ slug: collection.slug, collectionId: collection.id, replacedAt: now });
  await tx.update(collections).set({ slug }).where(eq(collections.id, collection.id));
}

/** True for a unique key of the slug namespace: two renames to one name at once, the second is the 409. */
export function isSlugTaken(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const pgError = e as Error & { code?: string; constraint?: string };
    if (pgError.code === '23505' && (pgError.constraint === 'collections_slug_unique' || pgError.constraint === 'collection_former_slugs_pkey')) return true;
  }
  return false;
}

/** `work`, with a unique key's violation of the slug namespace answered as the name being taken. */
export async function withUniqueSlugs<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw isSlugTaken(err) ? taken() : err;
  }
}

/**
 * The collection a former slug belongs to, with its current slug: on a workspace's own domain (`onDomainOf`), only
 * that workspace's collections with their custom link on. Null when `slug` is no collection's former slug.
 */
export async function collectionOfFormerSlug(db: Pick<Database, 'select'>, slug: string, onDomainOf: string | null = null): Promise<{ id: string; slug: string } | null> {
  const [row] = await db
    .select({ id: collections.id, slug: collections.slug })
    .from(collectionFormerSlugs)
    .innerJoin(collections, eq(collections.id, collectionFormerSlugs.collectionId))
    .where(and(eq(collectionFormerSlugs.slug, slug), onDomainOf === null ? undefined : and(eq(collections.workspaceId, onDomainOf), eq(collections.customLink, true))));
  return row ?? null;
}

/** Every slug the collection had before its current one: a deleted collection's links all say it was deleted. */
export async function formerSlugsOf(tx: Pick<Database, 'select'>, collectionId: string): Promise<string[]> {
  const rows = await tx.select({ slug: collectionFormerSlugs.slug }).from(collectionFormerSlugs).where(eq(collectionFormerSlugs.collectionId, collectionId));
  return rows.map((r) => r.slug);
}
