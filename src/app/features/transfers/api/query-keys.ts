import { userDataRoot } from '../../../lib/query-keys';

/** Every key of this feature, so a mutation can name exactly what it changed. */
export const transferKeys = {
  /** Everything of every transfer (lists, pages, downloads): what sending a draft changes. */
  all: [...userDataRoot, 'v1', 'transfers'] as const,
  /** All pages of every filtered list: one transfer changing can move it between filters. */
  lists: [...userDataRoot, 'v1', 'transfers', 'list'] as const,
  list: (filters: { status: string; q: string; sort: string; sentBy: string; limit?: number }) => [...transferKeys.lists, filters] as const,
  detail: (id: string) => [...userDataRoot, 'v1', 'transfers', 'detail', id] as const,
  downloads: (id: string) => [...userDataRoot, 'v1', 'transfers', 'downloads', id] as const,
  downloadLinks: (id: string) => [...userDataRoot, 'v1', 'transfers', 'download-links', id] as const,
};
