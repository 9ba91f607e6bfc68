import type { UploadTarget } from '../../../../contract/transfers';
import type { FileToRegister } from '../../../lib/uploads/upload-session';
import { v1Fetch } from '../../../lib/v1-client';

export interface AddedCollectionFiles {
  tusEndpoint: string;
  files: UploadTarget[];
}

/**
 * Registers files for upload into `folderId` (null: the top level); each file's `path` becomes
 * folders under it, made as needed, so a dropped folder keeps its tree.
 */
export function addCollectionFiles(id: string, files: FileToRegister[], folderId: string | null): Promise<AddedCollectionFiles> {
  return v1Fetch<AddedCollectionFiles>(`/collections/${encodeURIComponent(id)}/files`, { method: 'POST', json: { files, folderId } });
}
