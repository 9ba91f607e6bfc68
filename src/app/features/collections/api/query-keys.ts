import { userDataRoot } from '../../../lib/query-keys';

/** Every key of this feature, so a mutation can name exactly what it changed. */
export const collectionKeys = {
  all: [...userDataRoot, 'v1', 'collections'] as const,
  list: [...userDataRoot, 'v1', 'collections', 'list'] as const,
  detail: (id: string) => [...userDataRoot, 'v1', 'collections', 'detail', id] as const,
  files: (id: string) => [...userDataRoot, 'v1', 'collections', 'files', id] as const,
  folders: (id: string) => [...userDataRoot, 'v1', 'collections', 'folders', id] as const,
  guests: (id: string) => [...userDataRoot, 'v1', 'collections', 'guests', id] as const,
  trash: (id: string) => [...userDataRoot, 'v1', 'collections', 'trash', id] as const,
  downloadLinks: (id: string, folderId: string | null) => [...userDataRoot, 'v1', 'collections', 'download-links', id, folderId ?? 'all'] as const,
};
