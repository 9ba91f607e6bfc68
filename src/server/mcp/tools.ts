import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { v1Operations, type V1Operation } from '../api/v1/route.js';
import { createCollectionFolderRoute } from '../api/v1/collections/create-folder.js';
import { getCollectionDownloadLinksRoute } from '../api/v1/collections/download-links.js';
import { getCollectionRoute } from '../api/v1/collections/get.js';
import { inviteCollectionGuestsRoute } from '../api/v1/collections/invite-guests.js';
import { listCollectionFilesRoute } from '../api/v1/collections/list-files.js';
import { listCollectionsRoute } from '../api/v1/collections/list.js';
import { listContactsRoute } from '../api/v1/contacts/list.js';
import { createContactRoute } from '../api/v1/contacts/post.js';
import { replaceContactRoute } from '../api/v1/contacts/put.js';
import { getMeRoute } from '../api/v1/me/get.js';
import { createTransferRoute } from '../api/v1/transfers/create.js';
import { getTransferDownloadLinksRoute } from '../api/v1/transfers/download-links.js';
import { listTransferDownloadsRoute } from '../api/v1/transfers/downloads.js';
import { finalizeTransferRoute } from '../api/v1/transfers/finalize.js';
import { getTransferRoute } from '../api/v1/transfers/get.js';
import { listTransfersRoute } from '../api/v1/transfers/list.js';
import { revokeTransferRoute } from '../api/v1/transfers/revoke.js';
import { updateTransferRoute } from '../api/v1/transfers/update.js';
import { listWebhookDeliveriesRoute } from '../api/v1/webhooks/deliveries.js';
import { listWebhooksRoute } from '../api/v1/webhooks/list.js';

/**
 * The MCP server's tools: each is one /api/v1 operation, named for assistants, with the operation's own
 * summary, description and schemas (from the route table, so there is no second definition) and hints
 * about what it changes. A call runs the operation through its route: scopes, plan, idempotency and
 * rate limits apply unchanged.
 */
export interface ToolSpec {
  name: string;
  /** The v1 route the tool runs (its file holds the handler and the operation it calls). */
  route: { operationId: string };
  annotations: ToolAnnotations;
}

const reads: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const writes: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
const ends: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

export const toolSpecs: readonly ToolSpec[] = [
  { name: 'get_account', route: getMeRoute, annotations: reads },
  { name: 'list_transfers', route: listTransfersRoute, annotations: reads },
  { name: 'get_transfer', route: getTransferRoute, annotations: reads },
  { name: 'list_transfer_downloads', route: listTransferDownloadsRoute, annotations: reads },
  // Files leave as signed URLs valid an hour, never as bytes through the model.
  { name: 'get_transfer_download_links', route: getTransferDownloadLinksRoute, annotations: reads },
  // Files reach a transfer by URL import (the server fetches them), or are registered by name and size: the
  // answer then holds the tus endpoint and an upload token per file, for the client to stream the bytes itself.
  { name: 'create_transfer', route: createTransferRoute, annotations: { ...writes, openWorldHint: true } },
  { name: 'send_transfer', route: finalizeTransferRoute, annotations: { ...writes, openWorldHint: true } },
  { name: 'update_transfer', route: updateTransferRoute, annotations: { ...writes, idempotentHint: true } },
  { name: 'revoke_transfer', route: revokeTransferRoute, annotations: ends },
  { name: 'list_collections', route: listCollectionsRoute, annotations: reads },
  { name: 'get_collection', route: getCollectionRoute, annotations: reads },
  { name: 'list_collection_files', route: listCollectionFilesRoute, annotations: reads },
  { name: 'get_collection_download_links', route: getCollectionDownloadLinksRoute, annotations: reads },
  { name: 'create_collection_folder', route: createCollectionFolderRoute, annotations: writes },
  { name: 'invite_collection_guests', route: inviteCollectionGuestsRoute, annotations: { ...writes, openWorldHint: true } },
  { name: 'list_contacts', route: listContactsRoute, annotations: reads },
  { name: 'create_contact', route: createContactRoute, annotations: writes },
  { name: 'replace_contact', route: replaceContactRoute, annotations: { ...writes, idempotentHint: true } },
  { name: 'list_webhooks', route: listWebhooksRoute, annotations: reads },
  { name: 'list_webhook_deliveries', route: listWebhookDeliveriesRoute, annotations: reads },
];

export interface Tool extends ToolSpec {
  operation: V1Operation;
}

/** The tools with their operations, as the route table (v1Operations) describes them. */
export function tools(): Tool[] {
  const byId = new Map(v1Operations.map((op) => [op.operationId, op]));
  return toolSpecs.map((spec) => {
    const operation = byId.get(spec.route.operationId);
    if (!operation) throw new Error(`No v1 operation ${spec.route.operationId} for the tool ${spec.name}`);
    return { ...spec, operation };
  });
}
