import { eq } from 'drizzle-orm';
import { notFound } from '../core/errors.js';
import { vaults } from '../db/schema/index.js';
import type { FileOwner } from '../files/owners.js';
import { ABANDONED_UPLOAD_MS } from '../files/stored.js';
import { isWorkspaceActive } from '../workspaces/active.js';
import { vaultFile } from './items.js';
import { said } from '../core/sentences.js';

/**
 * The vault as an owner of files: it takes bytes for as long as it exists; its files are end to
 * end encrypted (no previews, no scan wait: the server holds only ciphertext), and its signed
 * links are the holder's own (no visit, no receipt, no count). Nobody but the holder ever gets a
 * link, so there is nothing for a link holder to view and no zip.
 */
export const vaultFileOwner: FileOwner = {
  kind: 'vault',

  async status(db, vaultId) {
    const [v] = await db.select({ itemsChangedAt: vaults.itemsChangedAt }).from(vaults).where(eq(vaults.id, vaultId));
    if (!v) return null;
    // Upload-Expires: at the earliest a week after items were last registered (see sweepAbandonedUploads).
    return { live: true, keptUntil: new Date(v.itemsChangedAt.getTime() + ABANDONED_UPLOAD_MS), encrypted: true };
  },

  // Nothing to announce: a vault file's arrival is the holder's own business (no events, no mail).
  async fileCompleted() {},

  // The scanner leaves vault files alone (ciphertext); should a verdict come anyway, the file is
  // already marked infected (so not served) and the holder decides, in the browser, what to delete.
  async fileInfected(services, file, signature) {
    services.log.warn({ fileId: file.id, signature }, 'a vault file was reported infected; its ciphertext cannot be judged, left to its holder');
  },

  // The vault takes no URL imports (the server never sees a vault file's plaintext): none may bring a byte.
  async importCeiling() {
    return 0;
  },

  async importFailed() {},

  async assertViewable() {
    throw notFound(said({ id: 'api.vault.previewNotFound', defaultMessage: 'Preview not found' }));
  },

  async openDownload(services, grant) {
    const { db } = services;
    const [v] = await db.select({ id: vaults.id, workspaceId: vaults.workspaceId }).from(vaults).where(eq(vaults.id, grant.ownerId));
    if (!v || grant.sessionId !== null || grant.within !== null) throw notFound(said({ id: 'api.vault.vaultNotFound', defaultMessage: 'Vault not found' }));
    if (!(await isWorkspaceActive(db, v.workspaceId))) throw notFound(said({ id: 'api.vault.vaultNotFound', defaultMessage: 'Vault not found' }));
    const file = await vaultFile(db, v.id, grant.fileId);
    if (!file) throw notFound(said({ id: 'api.vault.fileNotFound', defaultMessage: 'File not found' }));
    return { target: { kind: 'file', file }, encrypted: true, begin: async () => null };
  },
};
