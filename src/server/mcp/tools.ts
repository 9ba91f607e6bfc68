import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { v1Operations, type V1Operation } from '../api/v1/route.js';

/**
 * The MCP server's tools: each is one /api/v1 operation, named for assistants, with the operation's own
 * summary, description and schemas (from the route table, so there is no second definition) and hints
 * about what it changes. A call runs the operation through its route: scopes, plan, idempotency and
 * rate limits apply unchanged.
 */
export interface ToolSpec {
  name: string;
  operationId: string;
  annotations: ToolAnnotations;
}

const reads: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const writes: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
const ends: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

export const toolSpecs: readonly ToolSpec[] = [
  { name: 'get_account', operationId: 'getMe', annotations: reads },
  { name: 'list_transfers', operationId: 'listTransfers', annotations: reads },
  { name: 'get_transfer', operationId: 'getTransfer', annotations: reads },
  { name: 'list_transfer_downloads', operationId: 'listTransferDownloads', annotations: reads },
  // Files leave as signed URLs valid an hour, never as bytes through the model.
  { name: 'get_transfer_download_links', operationId: 'getTransferDownloadLinks', annotations: reads },
  // Files reach a transfer by URL import (the server fetches them), or are registered by name and size: the
  // answer then holds the tus endpoint and an upload token per file, for the client to stream the bytes itself.
  { name: 'create_transfer', operationId: 'createTransfer', annotations: { ...writes, openWorldHint: true } },
  { name: 'send_transfer', operationId: 'finalizeTransfer', annotations: { ...writes, openWorldHint: true } },
  { name: 'update_transfer', operationId: 'updateTransfer', annotations: { ...writes, idempotentHint: true } },
  { name: 'revoke_transfer', operationId: 'revokeTransfer', annotations: ends },
  { name: 'list_collections', operationId: 'listCollections', annotations: reads },
  { name: 'get_collection', operationId: 'getCollection', annotations: reads },
  { name: 'list_collection_files', operationId: 'listCollectionFiles', annotations: reads },
  { name: 'get_collection_download_links', operationId: 'getCollectionDownloadLinks', annotations: reads },
  { name: 'create_collection_folder', operationId: 'createCollectionFolder', annotations: writes },
  { name: 'invite_collection_guests', operationId: 'inviteCollectionGuests', annotations: { ...writes, openWorldHint: true } },
  { name: 'list_contacts', operationId: 'listContacts', annotations: reads },
  { name: 'create_contact', operationId: 'createContact', annotations: writes },
  { name: 'replace_contact', operationId: 'replaceContact', annotations: { ...writes, idempotentHint: true } },
  { name: 'list_webhooks', operationId: 'listWebhooks', annotations: reads },
  { name: 'list_webhook_deliveries', operationId: 'listWebhookDeliveries', annotations: reads },
];

export interface Tool extends ToolSpec {
  operation: V1Operation;
}

/** The tools with their operations; a name of an operation that does not exist is a setup error, found by the first test. */
export function tools(): Tool[] {
  const byId = new Map(v1Operations.map((op) => [op.operationId, op]));
  return toolSpecs.map((spec) => {
    const operation = byId.get(spec.operationId);
    if (!operation) throw new Error(`No v1 operation ${spec.operationId} for the tool ${spec.name}`);
    return { ...spec, operation };
  });
}
