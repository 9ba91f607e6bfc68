import * as z from 'zod/mini';

export const browserSorts = ['name', 'size', 'date'] as const;
export type BrowserSort = (typeof browserSorts)[number];
export type SortOrder = 'asc' | 'desc';
export type BrowserView = 'list' | 'grid';

export const defaultBrowserSearch = { sort: 'name', order: 'asc', view: 'list' } as const;

/**
 * The collection page's search params (zod/mini: route definitions sit in the first-load bundle).
 * `folder` is the folder being viewed (absent: the top level). Anything unreadable falls back to
 * the default, so an old or edited link still opens.
 */
export const collectionBrowserSearchSchema = z.object({
  folder: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(100))), undefined),
  sort: z.catch(z._default(z.enum(browserSorts), 'name'), 'name'),
  order: z.catch(z._default(z.enum(['asc', 'desc']), 'asc'), 'asc'),
  view: z.catch(z._default(z.enum(['list', 'grid']), 'list'), 'list'),
});

export type CollectionBrowserSearch = z.infer<typeof collectionBrowserSearchSchema>;
