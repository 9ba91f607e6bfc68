import type { SearchSchemaInput } from '@tanstack/react-router';

export const browserSorts = ['name', 'size', 'date'] as const;
export type BrowserSort = (typeof browserSorts)[number];
export type SortOrder = 'asc' | 'desc';
export type BrowserView = 'list' | 'grid';

export const defaultBrowserSearch = { sort: 'name', order: 'asc', view: 'list' } as const;

export interface CollectionBrowserSearch {
  folder?: string | undefined;
  sort: BrowserSort;
  order: SortOrder;
  view: BrowserView;
}

const oneOf = <T extends string>(values: readonly T[], value: unknown, fallback: T): T => (values.includes(value as T) ? (value as T) : fallback);

/**
 * The collection page's search params. `folder` is the folder being viewed (absent: the top
 * level). Anything unreadable falls back to the default, so an old or edited link still opens.
 * Written by hand, not with a schema library: route definitions are in the first-load bundle.
 */
export function validateCollectionBrowserSearch(
  search: { folder?: unknown; sort?: unknown; order?: unknown; view?: unknown } & SearchSchemaInput,
): CollectionBrowserSearch {
  const folder = typeof search.folder === 'string' && search.folder.length >= 1 && search.folder.length <= 100 ? search.folder : undefined;
  return {
    folder,
    sort: oneOf(browserSorts, search.sort, 'name'),
    order: oneOf(['asc', 'desc'] as const, search.order, 'asc'),
    view: oneOf(['list', 'grid'] as const, search.view, 'list'),
  };
}
