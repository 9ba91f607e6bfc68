import type { UploadTarget } from '../../../../contract/transfers';
import { folderIdOf, type FileToUpload, type UploadRegistrar } from '../../../lib/uploads/upload-session';
import { addCollectionFiles } from '../api/add-collection-files';
import { deleteFiles } from '../api/delete-files';

/** Where a collection's unfinished uploads are remembered, so they resume after the tab was closed. */
export const collectionUploadsStorageKey = (collectionId: string) => `parcel.collection.uploads.${collectionId}`;


/**
 * A collection's files are registered into the folder that was being viewed when they were added
 * (one request per folder), each under its relative path, so a dropped tree keeps its shape. A
 * file removed before it finished is deleted from the collection.
 */
export function collectionRegistrar(collectionId: string, onRegistered: () => void): UploadRegistrar {
  return {
    async register(files) {
      const byFolder = new Map<string | null, number[]>();
      files.forEach((file, index) => {
        const folderId = folderIdOf(file.destination);
        byFolder.set(folderId, [...(byFolder.get(folderId) ?? []), index]);
      });
      const targets: UploadTarget[] = [];
      for (const [folderId, indexes] of byFolder) {
        const batch = indexes.map((i) => toRegister(files[i]!));
        const added = await addCollectionFiles(collectionId, { files: batch }, folderId);
        indexes.forEach((fileIndex, j) => {
          const target = added.files[j];
          if (target) targets[fileIndex] = target;
        });
      }
      onRegistered();
      return { ownerId: collectionId, targets };
    },
    async unregister(id, fileId) {
      await deleteFiles(id, [fileId]);
    },
  };
}

function toRegister({ name, size, mimeType, path }: FileToUpload) {
  return { name, size, ...(mimeType ? { mimeType } : {}), path: path ?? null };
}
