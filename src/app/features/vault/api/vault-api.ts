import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  CreateVaultFolderRequestSchema,
  DeletedVaultFolderSchema,
  DeletedVaultItemsSchema,
  RegisteredVaultItemsSchema,
  UpdateVaultFolderRequestSchema,
  UpdateVaultItemRequestSchema,
  Vault,
  VaultContentsSchema,
  VaultDownloadSchema,
  VaultFolder,
  VaultItem,
  VaultItemToUploadSchema,
  VaultRecord,
  VaultUsageResponse,
} from '../../../../contract/vault';
import { isApiRequestError } from '../../../lib/api-error';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { userDataRoot } from '../../../lib/query-keys';

/**
 * The vault's requests (/api/dashboard/vault, session only). Everything sent is what the browser sealed: the
 * record (KDF parameters and wrapped master keys), wrapped file keys, sealed names and thumbnails.
 */

export type VaultContents = z.infer<typeof VaultContentsSchema>;
export type VaultItemToUpload = Partial<z.input<typeof VaultItemToUploadSchema>> & { size: number };
export type RegisteredVaultItems = z.infer<typeof RegisteredVaultItemsSchema>;
export type VaultItemChange = z.input<typeof UpdateVaultItemRequestSchema>;
export type VaultFolderChange = z.input<typeof UpdateVaultFolderRequestSchema>;
export type NewVaultFolder = z.input<typeof CreateVaultFolderRequestSchema>;
export type VaultDownload = z.infer<typeof VaultDownloadSchema>;

export const vaultKeys = {
  all: [...userDataRoot, 'vault'] as const,
  vault: [...userDataRoot, 'vault', 'record'] as const,
  contents: [...userDataRoot, 'vault', 'contents'] as const,
  usage: [...userDataRoot, 'vault', 'usage'] as const,
};

/** The signed-in user's vault, or null before they made one. */
export async function getVault(signal?: AbortSignal): Promise<Vault | null> {
  try {
    return (await dashboardFetch<{ vault: Vault }>('/vault', { signal })).vault;
  } catch (error) {
    if (isApiRequestError(error) && error.status === 404) return null;
    throw error;
  }
}

export const vaultQueryOptions = () => queryOptions({ queryKey: vaultKeys.vault, queryFn: ({ signal }) => getVault(signal) });

/** What the vault uses of the plan's quota (settings), whether or not it exists yet. */
export async function getVaultUsage(signal?: AbortSignal): Promise<VaultUsageResponse['usage']> {
  return (await dashboardFetch<VaultUsageResponse>('/vault/usage', { signal })).usage;
}

export const vaultUsageQueryOptions = () => queryOptions({ queryKey: vaultKeys.usage, queryFn: ({ signal }) => getVaultUsage(signal) });

/** Makes the vault (409 `vault_exists` when there is one). */
export async function createVaultRecord(record: VaultRecord): Promise<Vault> {
  return (await dashboardFetch<{ vault: Vault }>('/vault', { method: 'PUT', json: { record } })).vault;
}

/** Replaces the record: a new passphrase, or a recovery. */
export async function replaceVaultRecord(record: VaultRecord): Promise<Vault> {
  return (await dashboardFetch<{ vault: Vault }>('/vault', { method: 'PATCH', json: { record } })).vault;
}

export function getVaultContents(signal?: AbortSignal): Promise<VaultContents> {
  return dashboardFetch<VaultContents>('/vault/items', { signal });
}

export const vaultContentsQueryOptions = () => queryOptions({ queryKey: vaultKeys.contents, queryFn: ({ signal }) => getVaultContents(signal) });

/** Registers up to 100 items (their bytes then go through tus with the targets' tokens). */
export function registerVaultItems(items: VaultItemToUpload[]): Promise<RegisteredVaultItems> {
  return dashboardFetch<RegisteredVaultItems>('/vault/items', { method: 'POST', json: { items } });
}

export async function updateVaultItem(id: string, change: VaultItemChange): Promise<VaultItem> {
  return (await dashboardFetch<{ item: VaultItem }>(`/vault/items/${encodeURIComponent(id)}`, { method: 'PATCH', json: change })).item;
}

export function deleteVaultItems(ids: string[]): Promise<z.infer<typeof DeletedVaultItemsSchema>> {
  return dashboardFetch('/vault/items', { method: 'DELETE', json: { ids } });
}

export async function createVaultFolder(folder: NewVaultFolder): Promise<VaultFolder> {
  return (await dashboardFetch<{ folder: VaultFolder }>('/vault/folders', { method: 'POST', json: folder })).folder;
}

export async function updateVaultFolder(id: string, change: VaultFolderChange): Promise<VaultFolder> {
  return (await dashboardFetch<{ folder: VaultFolder }>(`/vault/folders/${encodeURIComponent(id)}`, { method: 'PATCH', json: change })).folder;
}

/** A folder with everything in it. */
export function deleteVaultFolder(id: string): Promise<z.infer<typeof DeletedVaultFolderSchema>> {
  return dashboardFetch(`/vault/folders/${encodeURIComponent(id)}?recursive=true`, { method: 'DELETE' });
}

/** A signed link to the item's ciphertext, for an hour. */
export function getVaultItemDownload(id: string): Promise<VaultDownload> {
  return dashboardFetch<VaultDownload>(`/vault/items/${encodeURIComponent(id)}/download`);
}
