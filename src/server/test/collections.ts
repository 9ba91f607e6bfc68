import { eq } from 'drizzle-orm';
import { vi } from 'vitest';
import { CollectionResponseSchema, type Collection } from '../../contract/collections.js';
import { files } from '../db/schema/index.js';
import { makeDueThumbnails } from '../thumbnails/thumbnails.js';
import { AddFilesResponseSchema } from '../../contract/transfers.js';
import type { TestServer } from './harness.js';
import { tusUpload } from './uploads.js';

/** Helpers for the collection tests: the API as an integrator calls it, checked against its status. */

export interface FileToSend {
  name: string;
  bytes: Buffer;
  path?: string;
  mimeType?: string;
}

export function collectionsApi(server: TestServer, token: string) {
  const call = (method: string, path: string, json?: unknown) => server.fetch(`/api/v1${path}`, { method, token, json });
  const expectStatus = async (res: Response, status: number): Promise<unknown> => {
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${await res.text()}`);
    return res.json();
  };
  return {
    call,
    expectStatus,
    async create(body: Record<string, unknown> = { title: 'Lookbook' }): Promise<Collection> {
      return CollectionResponseSchema.parse(await expectStatus(await call('POST', '/collections', body), 201)).collection;
    },
    /** Registers the files (into `folderId`, under each one's `path`) and uploads every byte through tus. Returns their ids. */
    async upload(collectionId: string, toSend: FileToSend[], folderId?: string | null): Promise<string[]> {
      const body = {
        files: toSend.map((f) => ({
          name: f.name,
          size: f.bytes.length,
          ...(f.path ? { path: f.path } : {}),
          ...(f.mimeType ? { mimeType: f.mimeType } : {}),
        })),
        ...(folderId !== undefined ? { folderId } : {}),
      };
      const added = AddFilesResponseSchema.parse(await expectStatus(await call('POST', `/collections/${collectionId}/files`, body), 201));
      for (const [i, target] of added.files.entries()) await tusUpload(toSend[i]!.bytes, { endpoint: `${server.url}/files/`, token: target.uploadToken });
      return added.files.map((f) => f.id);
    },
  };
}

/**
 * Makes the collection's due previews and waits until every image was tried: a worker of another test may hold
 * some rows under its lease (skipped here) until it is done with them.
 */
export async function previewsSettled(server: TestServer, collectionId: string): Promise<void> {
  await makeDueThumbnails(server.services);
  // vi.waitFor rather than expect.poll, so that a beforeAll can wait too.
  await vi.waitFor(
    async () => {
      const rows = await server.services.db.select({ state: files.thumbnailState, mimeType: files.mimeType }).from(files).where(eq(files.ownerId, collectionId));
      if (!rows.every((f) => f.state !== null || !f.mimeType.startsWith('image/'))) throw new Error('previews still being made');
    },
    { timeout: 10_000, interval: 50 },
  );
}
