import type { Context } from 'hono';
import {
  CreateVaultFolderRequestSchema,
  DeletedVaultFolderSchema,
  DeletedVaultItemsSchema,
  DeleteVaultFolderQuerySchema,
  DeleteVaultItemsRequestSchema,
  RegisteredVaultItemsSchema,
  RegisterVaultItemsRequestSchema,
  UpdateVaultFolderRequestSchema,
  UpdateVaultItemRequestSchema,
  VaultContentsSchema,
  VaultDownloadSchema,
  VaultFolderResponseSchema,
  VaultItemResponseSchema,
  VaultRecordRequestSchema,
  VaultResponseSchema,
  VaultUsageResponseSchema,
} from '../../contract/vault.js';
import type { AppEnv } from '../http/env.js';
import { createVaultFolder, deleteVaultFolder, updateVaultFolder } from '../vault/folders.js';
import { deleteVaultItems, listVault, registerVaultItems, updateVaultItem, vaultItemDownload } from '../vault/items.js';
import { createVault, getVault, holderVaultUsage, replaceVaultRecord, type VaultHolder } from '../vault/vault.js';
import type { DashboardSurface } from './routes.js';

const holderOf = (c: Context<AppEnv>): VaultHolder => ({ userId: c.var.user.userId, workspaceId: c.var.user.workspaceId, plan: c.var.user.plan });
const ITEM = ['fi', 'Item'] as const;
const FOLDER = ['vfd', 'Folder'] as const;

/**
 * /api/dashboard/vault: the signed-in user's client-side encrypted store (the operations are in
 * vault/). Session cookie only (the `holder` auth kind); the dashboard's same-origin rule applies to every change.
 */
export function vaultRoutes(surface: DashboardSurface) {
  surface
    .use(async (c, next) => {
      await next();
      c.header('Cache-Control', 'no-store');
    })
    .route({ method: 'get', path: '/', auth: 'holder', summary: "The holder's vault (its sealed record)", success: { status: 200, schema: VaultResponseSchema } }, async (c) =>
      c.json({ vault: await getVault(c.var.services, holderOf(c)) }),
    )
    .route({ method: 'get', path: '/usage', auth: 'holder', summary: "The vault's usage against its plan", success: { status: 200, schema: VaultUsageResponseSchema } }, async (c) =>
      c.json({ usage: await holderVaultUsage(c.var.services, holderOf(c)) }),
    )
    .route({ method: 'put', path: '/', auth: 'holder', summary: 'Create the vault', body: VaultRecordRequestSchema, success: { status: 201, schema: VaultResponseSchema } }, async (c, { body }) =>
      c.json({ vault: await createVault(c.var.services, holderOf(c), body.record) }, 201),
    )
    .route({ method: 'patch', path: '/', auth: 'holder', summary: "Replace the vault's sealed record (a new passphrase)", body: VaultRecordRequestSchema, success: { status: 200, schema: VaultResponseSchema } }, async (c, { body }) =>
      c.json({ vault: await replaceVaultRecord(c.var.services, holderOf(c), body.record) }),
    )
    .route({ method: 'get', path: '/items', auth: 'holder', summary: "The vault's folders and items", success: { status: 200, schema: VaultContentsSchema } }, async (c) =>
      c.json(await listVault(c.var.services, holderOf(c))),
    )
    .route({ method: 'post', path: '/items', auth: 'holder', summary: 'Register items to upload', body: RegisterVaultItemsRequestSchema, success: { status: 201, schema: RegisteredVaultItemsSchema } }, async (c, { body }) =>
      c.json(await registerVaultItems(c.var.services, holderOf(c), body), 201),
    )
    .route({ method: 'delete', path: '/items', auth: 'holder', summary: 'Delete items, bytes included', body: DeleteVaultItemsRequestSchema, success: { status: 200, schema: DeletedVaultItemsSchema } }, async (c, { body }) =>
      c.json(await deleteVaultItems(c.var.services, holderOf(c), body.ids)),
    )
    .route(
      { method: 'patch', path: '/items/:id', auth: 'holder', summary: 'Rename or move an item', ids: { id: ITEM }, body: UpdateVaultItemRequestSchema, success: { status: 200, schema: VaultItemResponseSchema } },
      async (c, { params, body }) => c.json({ item: await updateVaultItem(c.var.services, holderOf(c), params.id, body) }),
    )
    .route({ method: 'get', path: '/items/:id/download', auth: 'holder', summary: "An item's signed download URL (ciphertext)", ids: { id: ITEM }, success: { status: 200, schema: VaultDownloadSchema } }, async (c, { params }) =>
      c.json(await vaultItemDownload(c.var.services, holderOf(c), params.id)),
    )
    .route({ method: 'post', path: '/folders', auth: 'holder', summary: 'Create a folder', body: CreateVaultFolderRequestSchema, success: { status: 201, schema: VaultFolderResponseSchema } }, async (c, { body }) =>
      c.json({ folder: await createVaultFolder(c.var.services, holderOf(c), body) }, 201),
    )
    .route(
      { method: 'patch', path: '/folders/:id', auth: 'holder', summary: 'Rename or move a folder', ids: { id: FOLDER }, body: UpdateVaultFolderRequestSchema, success: { status: 200, schema: VaultFolderResponseSchema } },
      async (c, { params, body }) => c.json({ folder: await updateVaultFolder(c.var.services, holderOf(c), params.id, body) }),
    )
    .route(
      { method: 'delete', path: '/folders/:id', auth: 'holder', summary: 'Delete a folder (with what is in it, when recursive)', ids: { id: FOLDER }, query: DeleteVaultFolderQuerySchema, success: { status: 200, schema: DeletedVaultFolderSchema } },
      async (c, { params, query }) => c.json(await deleteVaultFolder(c.var.services, holderOf(c), params.id, { recursive: query.recursive })),
    );
}
