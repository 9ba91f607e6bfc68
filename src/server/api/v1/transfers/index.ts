import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/env.js';
import { registerAddTransferFiles } from './add-files.js';
import { registerCreateTransfer } from './create.js';
import { registerDeleteTransferFile } from './delete-file.js';
import { registerDiscardTransfer } from './discard.js';
import { registerGetTransferDownloadLinks } from './download-links.js';
import { registerListTransferDownloads } from './downloads.js';
import { registerFinalizeTransfer } from './finalize.js';
import { registerGetTransfer } from './get.js';
import { registerListTransfers } from './list.js';
import { registerRevokeTransfer } from './revoke.js';
import { registerStoreSealedFileMeta } from './sealed.js';
import { registerUpdateTransfer } from './update.js';

export function registerTransfers(app: OpenAPIHono<AppEnv>) {
  registerListTransfers(app);
  registerCreateTransfer(app);
  registerGetTransfer(app);
  registerUpdateTransfer(app);
  registerDiscardTransfer(app);
  registerAddTransferFiles(app);
  registerDeleteTransferFile(app);
  registerStoreSealedFileMeta(app);
  registerFinalizeTransfer(app);
  registerRevokeTransfer(app);
  registerListTransferDownloads(app);
  registerGetTransferDownloadLinks(app);
}
