import type { z } from '@hono/zod-openapi';
import type { CollectionFilePageSchema, CollectionListSchema } from '../../contract/collections.js';
import type { ContactListSchema } from '../../contract/contacts.js';
import type { CreateTransferResponseSchema, TransferDownloadsSchema, TransferListSchema } from '../../contract/transfers.js';
import { formatBytes } from '../../contract/units.js';
import type { WebhookDeliveryListSchema, WebhookListSchema } from '../../contract/webhooks.js';

/**
 * What a listing tool (and create_transfer, whose answer is instructions as much as data) says to the model: one line per item with what tells items apart (id, name,
 * state, size, dates), then how to get the next page, as the tool's first text. The full answer is
 * the structured content. Names, titles and other text people typed are quoted as JSON strings, so
 * they read as data, never as instructions or markup.
 */

const quoted = (text: string | null | undefined) => (text ? JSON.stringify(text) : '(untitled)');
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : 'never');
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function page(tool: string, count: number, noun: string, nextCursor: string | null | undefined, lines: string[]): string {
  const head = `${plural(count, noun)}${nextCursor ? ' on this page' : ''}${count > 0 ? ':' : '.'}`;
  const tail = nextCursor ? [`More: call ${tool} again with the same arguments and cursor ${JSON.stringify(nextCursor)}.`] : [];
  return [head, ...lines, ...tail].join('\n');
}

type Summarize = (tool: string, body: never) => string;

const summaries: Record<string, Summarize> = {
  createTransfer: (_tool, created: z.infer<typeof CreateTransferResponseSchema>) =>
    [
      `Draft transfer ${created.id} made (expires ${day(created.expiresAt)}); nothing is shared until send_transfer is called with its id.`,
      ...(created.files.length > 0
        ? [
            `Upload each file's bytes with the tus protocol (tus 1.0.0) to ${created.tusEndpoint}, sending the header x-service-upload-token with that file's token (valid until the time given; the upload must be exactly the registered size):`,
            ...created.files.map((f) => `- ${f.id} ${quoted(f.name)} · ${formatBytes(f.size)} · token ${f.uploadToken} · until ${f.uploadTokenExpiresAt}`),
          ]
        : []),
      ...(created.imports.length > 0 ? ['The server fetches these URLs itself (send_transfer may be called at once; recipients are mailed once they land):'] : []),
      ...created.imports.map((i) => `- ${i.fileId} ${quoted(i.name)} · ${i.size === null ? 'size not given' : formatBytes(i.size)} · ${i.status}`),
    ].join('\n'),
  listTransfers: (tool, { transfers, nextCursor }: z.infer<typeof TransferListSchema>) =>
    page(
      tool,
      transfers.length,
      'transfer',
      nextCursor,
      transfers.map((t) => {
        const state = t.sendRequestedAt ? t.status : 'draft';
        const files = `${plural(t.fileCount, 'file')}, ${formatBytes(t.sizeBytes)}`;
        const to = t.recipients.length > 0 ? ` · to ${t.recipients.join(', ')}` : '';
        return `- ${t.id} ${quoted(t.title ?? t.firstFileName)} · ${state} · ${files} · ${plural(t.downloadCount, 'download')} · expires ${day(t.expiresAt)}${to}`;
      }),
    ),
  listTransferDownloads: (_tool, { recipients, downloads, totalDownloads }: z.infer<typeof TransferDownloadsSchema>) =>
    [
      `${plural(totalDownloads, 'download')} in all; ${plural(recipients.length, 'recipient')}${recipients.length > 0 ? ':' : '.'}`,
      ...recipients.map((r) => `- ${r.email} · ${r.notifiedAt ? `mailed ${day(r.notifiedAt)}` : 'not mailed'}${r.bouncedAt ? ` · mail bounced (${r.bounceKind ?? 'unknown'})` : ''} · ${r.downloaded ? 'downloaded' : 'not downloaded yet'}`),
      ...(downloads.length > 0 ? ['Downloads, newest first:'] : []),
      ...downloads.map((d) => `- ${d.createdAt} · ${d.fileName === null ? 'the whole transfer (zip)' : quoted(d.fileName)}${d.recipientEmail ? ` · by ${d.recipientEmail}` : ''} · ${d.completedAt ? 'complete' : 'not completed'}`),
    ].join('\n'),
  listCollections: (tool, { collections }: z.infer<typeof CollectionListSchema>) =>
    page(
      tool,
      collections.length,
      'collection',
      null,
      collections.map((c) => `- ${c.id} ${quoted(c.title)} · ${c.visibility} · ${plural(c.fileCount, 'file')}, ${formatBytes(c.sizeBytes)} · updated ${day(c.updatedAt)}`),
    ),
  listCollectionFiles: (tool, { files, nextCursor }: z.infer<typeof CollectionFilePageSchema>) =>
    page(
      tool,
      files.length,
      'file',
      nextCursor,
      files.map((f) => {
        const where = f.folderId ? ` · in folder ${f.folderId}` : '';
        const flags = [f.state === 'complete' ? null : f.state, f.unsent ? 'unsent (an uploader has not sent it yet)' : null, f.scanResult === 'infected' ? 'infected' : null].filter(Boolean);
        return `- ${f.id} ${quoted(f.name)} · ${formatBytes(f.sizeBytes)} · ${f.mimeType}${where}${flags.length > 0 ? ` · ${flags.join(', ')}` : ''}`;
      }),
    ),
  listContacts: (tool, { contacts }: z.infer<typeof ContactListSchema>) =>
    page(
      tool,
      contacts.length,
      'contact',
      null,
      contacts.map((c) => {
        const name = [c.firstName, c.lastName].filter(Boolean).join(' ');
        return `- ${c.id} ${name ? `${quoted(name)} ` : ''}<${c.email}>${c.company ? ` · ${quoted(c.company)}` : ''}`;
      }),
    ),
  listWebhooks: (tool, { webhooks }: z.infer<typeof WebhookListSchema>) =>
    page(
      tool,
      webhooks.length,
      'webhook',
      null,
      webhooks.map((w) => {
        const state = w.enabled ? 'enabled' : `paused${w.disabledReason ? ` (${w.disabledReason})` : ''}`;
        return `- ${w.id} ${w.mode === 'push' ? `pushes to ${w.url}` : 'pull'} · ${state} · events: ${w.events.join(', ') || 'none'}${w.description ? ` · ${quoted(w.description)}` : ''}`;
      }),
    ),
  listWebhookDeliveries: (_tool, { attempts, pending }: z.infer<typeof WebhookDeliveryListSchema>) =>
    [
      `${plural(pending.length, 'delivery', 'deliveries')} waiting${pending.length > 0 ? ':' : '.'}`,
      ...pending.map((p) => `- ${p.deliveryId} ${p.eventType} · ${plural(p.attempts, 'attempt')} so far · next ${p.nextAttemptAt}`),
      `${plural(attempts.length, 'recent attempt')}${attempts.length > 0 ? ', newest first:' : '.'}`,
      ...attempts.map((a) => `- ${a.attemptedAt} ${a.eventType} (delivery ${a.deliveryId}, attempt ${a.attempt}) · ${a.success ? 'delivered' : `failed: ${a.statusCode ?? a.error ?? 'no answer'}`}`),
    ].join('\n'),
};

/** The summary of an operation's answer, for the operations that list; undefined for the others (their JSON is their text). */
export function summarize(operationId: string, tool: string, body: unknown): string | undefined {
  const summary = summaries[operationId];
  return summary ? summary(tool, body as never) : undefined;
}

