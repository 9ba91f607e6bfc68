import { Hono, type Context, type MiddlewareHandler } from 'hono';
import {
  CreateVaultFolderRequestSchema,
  DeleteVaultFolderQuerySchema,
  DeleteVaultItemsRequestSchema,
  RegisterVaultItemsRequestSchema,
  UpdateVaultFolderRequestSchema,
  UpdateVaultItemRequestSchema,
  VaultRecordRequestSchema,
} from '../../contract/vault.js';
import { ApiError } from '../core/errors.js';
import type { AppEnv } from '../http/env.js';
import { parseJsonBody, parseQuery, pathId } from '../http/validate.js';
import { createVaultFolder, deleteVaultFolder, updateVaultFolder } from '../vault/folders.js';
import { deleteVaultItems, listVault, registerVaultItems, updateVaultItem, vaultItemDownload } from '../vault/items.js';
import { createVault, getVault, holderVaultUsage, replaceVaultRecord, type VaultHolder } from '../vault/vault.js';
import { requireSession } from './session.js';

/**
 * For a bearer credential (an API key, an OAuth token, even the dashboard's own short-lived
 * token) the vault does not exist: every path answers exactly what an unknown /api path answers,
 * before the session is even looked at, so a key learns nothing, not even that a vault is here.
 */
const sessionOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.header('authorization') !== undefined) throw new ApiError('not_found', `No endpoint ${c.req.method} ${c.req.path}`);
  await next();
};

const holderOf = (c: Context<AppEnv>): VaultHolder => ({ userId: c.var.user.userId, workspaceId: c.var.user.workspaceId, plan: c.var.user.plan });

/**
 * /api/dashboard/vault: the signed-in user's client-side encrypted store (the operations are in
 * vault/). Session cookie only; the dashboard's same-origin rule applies to every change.
 */
export function vaultRoutes() {
  const app = new Hono<AppEnv>();
  app.use('*', sessionOnly, requireSession);
  app.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });

  app.get('/', async (c) => c.json({ vault: await getVault(c.var.services, holderOf(c)) }));

  app.get('/usage', async (c) => c.json({ usage: await holderVaultUsage(c.var.services, holderOf(c)) }));

  app.put('/', async (c) => {
    const { record } = await parseJsonBody(c, VaultRecordRequestSchema);
    return c.json({ vault: await createVault(c.var.services, holderOf(c), record) }, 201);
  });

  app.patch('/', async (c) => {
    const { record } = await parseJsonBody(c, VaultRecordRequestSchema);
    return c.json({ vault: await replaceVaultRecord(c.var.services, holderOf(c), record) });
  });

  app.get('/items', async (c) => c.json(await listVault(c.var.services, holderOf(c))));

  app.post('/items', async (c) => {
    const input = await parseJsonBody(c, RegisterVaultItemsRequestSchema);
    return c.json(await registerVaultItems(c.var.services, holderOf(c), input), 201);
  });

  app.delete('/items', async (c) => {
    const { ids } = await parseJsonBody(c, DeleteVaultItemsRequestSchema);
    return c.json(await deleteVaultItems(c.var.services, holderOf(c), ids));
  });

  app.patch('/items/:id', async (c) => {
    const id = pathId(c, 'id', 'fi', 'Item');
    const input = await parseJsonBody(c, UpdateVaultItemRequestSchema);
    return c.json({ item: await updateVaultItem(c.var.services, holderOf(c), id, input) });
  });

  app.get('/items/:id/download', async (c) => {
    const id = pathId(c, 'id', 'fi', 'Item');
    return c.json(await vaultItemDownload(c.var.services, holderOf(c), id));
  });

  app.post('/folders', async (c) => {
    const input = await parseJsonBody(c, CreateVaultFolderRequestSchema);
    return c.json({ folder: await createVaultFolder(c.var.services, holderOf(c), input) }, 201);
  });

  app.patch('/folders/:id', async (c) => {
    const id = pathId(c, 'id', 'vfd', 'Folder');
    const input = await parseJsonBody(c, UpdateVaultFolderRequestSchema);
    return c.json({ folder: await updateVaultFolder(c.var.services, holderOf(c), id, input) });
  });

  app.delete('/folders/:id', async (c) => {
    const id = pathId(c, 'id', 'vfd', 'Folder');
    const { recursive } = parseQuery(c, DeleteVaultFolderQuerySchema);
    return c.json(await deleteVaultFolder(c.var.services, holderOf(c), id, { recursive }));
  });

  // Anything else under /vault is an unknown endpoint, as everywhere under /api.
  app.all('*', (c) => {
    throw new ApiError('not_found', `No endpoint ${c.req.method} ${c.req.path}`);
  });

  return app;
}
