import { describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../../test/fetch-stub';
import { signedIn } from '../../../test/fixtures';
import { destinationOf } from '../../../lib/uploads/upload-session';
import { collectionRegistrar } from './collection-uploads';

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

describe('a collection’s uploads', () => {
  it('registers each file into the folder it was dropped in, under its relative path, in order', async () => {
    let next = 1;
    const network = stubFetch({
      ...signedIn('paid'),
      'POST /api/v1/collections/:id/files': ({ body }) =>
        json(
          {
            tusEndpoint: 'http://localhost:8080/files/',
            files: (body as { files: { name: string; size: number }[] }).files.map((f) => ({
              id: `fi_${next}`,
              name: f.name,
              size: f.size,
              uploadToken: `tok_${next++}`,
              uploadTokenExpiresAt: inAnHour(),
            })),
            imports: [],
          },
          201,
        ),
    });
    const registered = vi.fn();
    const { ownerId, targets } = await collectionRegistrar('col_1', registered).register(
      [
        { key: 'a', name: 'beach.jpg', size: 3, mimeType: 'image/jpeg', path: 'Trip/Day 1', destination: destinationOf('fo_1') },
        { key: 'b', name: 'notes.txt', size: 2, destination: destinationOf(null) },
        { key: 'c', name: 'sunset.jpg', size: 4, path: 'Trip', destination: destinationOf('fo_1') },
      ],
      'col_1',
    );

    expect(ownerId).toBe('col_1');
    expect(network.requestsTo('POST /api/v1/collections/col_1/files').map((r) => r.body)).toEqual([
      {
        files: [
          { name: 'beach.jpg', size: 3, mimeType: 'image/jpeg', path: 'Trip/Day 1' },
          { name: 'sunset.jpg', size: 4, path: 'Trip' },
        ],
        folderId: 'fo_1',
      },
      { files: [{ name: 'notes.txt', size: 2, path: null }], folderId: null },
    ]);
    // Targets line up with the files as given, whatever the requests' order.
    expect(targets.map((t) => t.name)).toEqual(['beach.jpg', 'notes.txt', 'sunset.jpg']);
    expect(registered).toHaveBeenCalledTimes(1);
  });
});
