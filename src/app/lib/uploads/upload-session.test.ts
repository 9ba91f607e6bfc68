import { describe, expect, it } from 'vitest';
import type { UploadTarget } from '../../../contract/transfers';
import { toUploadFile } from '../../components/uploader/file-uploader';
import { UploadSession, type FileToUpload, type UploadRegistrar } from './upload-session';

const inTwoHours = () => new Date(Date.now() + 2 * 3600_000).toISOString();

/** A registrar for an owner that exists already (a collection), keeping what it was asked. */
function collectionRegistrar() {
  const batches: { files: FileToUpload[]; ownerId: string | null }[] = [];
  const unregistered: string[] = [];
  let next = 1;
  const registrar: UploadRegistrar = {
    async register(files, ownerId) {
      batches.push({ files, ownerId });
      const targets: UploadTarget[] = files.map((f) => ({
        id: `fi_${next}`,
        name: f.name,
        size: f.size,
        uploadToken: `tok_${next++}`,
        uploadTokenExpiresAt: inTwoHours(),
      }));
      return { ownerId: ownerId!, targets };
    },
    async unregister(_ownerId, fileId) {
      unregistered.push(fileId);
    },
  };
  return { registrar, batches, unregistered };
}

describe('UploadSession', () => {
  it('registers into an owner known up front, with each file’s destination', async () => {
    const { registrar, batches } = collectionRegistrar();
    const session = new UploadSession({ storageKey: 'uploads.col_1', registrar, ownerId: 'col_1' });
    await session.registerFiles([{ key: 'a', name: 'a.jpg', size: 3, path: 'Shoot/Day 1', destination: 'fo_1' }]);
    expect(batches).toEqual([{ files: [{ key: 'a', name: 'a.jpg', size: 3, path: 'Shoot/Day 1', destination: 'fo_1' }], ownerId: 'col_1' }]);
    expect(await session.tokenFor('a')).toBe('tok_1');
    expect(session.fileIdOf('a')).toBe('fi_1');
  });

  it('forgets an uploaded file, so removing it from the list later leaves it with its owner', async () => {
    const { registrar, unregistered } = collectionRegistrar();
    const session = new UploadSession({ storageKey: 'uploads.col_1', registrar, ownerId: 'col_1' });
    await session.registerFiles([
      { key: 'a', name: 'a.txt', size: 1 },
      { key: 'b', name: 'b.txt', size: 1 },
    ]);
    session.forgetFile('a');
    await session.removeFile('a');
    await session.removeFile('b');
    expect(unregistered).toEqual(['fi_2']);

    // Only unfinished uploads are left to resume after a reload.
    await session.registerFiles([{ key: 'c', name: 'c.txt', size: 1 }]);
    const later = new UploadSession({ storageKey: 'uploads.col_1', registrar, ownerId: 'col_1' });
    expect(Object.keys(later.remembered()!.files)).toEqual(['c']);
  });
});

describe('toUploadFile', () => {
  it('remembers which files are completely uploaded, so the same file added after a reload is known to be done', async () => {
    const { registrar, batches } = collectionRegistrar();
    const session = new UploadSession({ storageKey: 'uploads.draft', registrar, ownerId: 'tr_1' });
    await session.registerFiles([
      { key: 'a', name: 'a.txt', size: 1 },
      { key: 'b', name: 'b.txt', size: 1 },
      { key: 'c', name: 'c.txt', size: 1 },
    ]);
    session.markUploaded('a');
    // What the owner lists as complete counts too (the tab closed before the uploader heard the last byte land).
    session.markUploadedFiles(['fi_2']);

    const later = new UploadSession({ storageKey: 'uploads.draft', registrar });
    later.resume(later.remembered()!);
    expect(['a', 'b', 'c'].map((key) => later.isUploaded(key))).toEqual([true, true, false]);
    // Added again, nothing is registered twice.
    await later.registerFiles([{ key: 'a', name: 'a.txt', size: 1 }]);
    expect(batches).toHaveLength(1);
  });

  it('keeps the folder of a dropped folder as path, the base name as name, and where the page sent it', () => {
    const file = { id: 'uppy-x', name: 'beach.jpg', size: 10, type: 'image/jpeg', meta: { relativePath: 'Holiday/2026/beach.jpg' } } as Parameters<
      typeof toUploadFile
    >[0];
    expect(toUploadFile(file)).toEqual({ key: 'uppy-x', name: 'beach.jpg', size: 10, mimeType: 'image/jpeg', path: 'Holiday/2026' });
    const loose = { ...file, type: '', meta: { relativePath: null, destination: 'fo_1' } } as Parameters<typeof toUploadFile>[0];
    expect(toUploadFile(loose)).toEqual({ key: 'uppy-x', name: 'beach.jpg', size: 10, mimeType: undefined, path: null, destination: 'fo_1' });
  });
});
