/** The search parameters of a collection's page: the folder being viewed, and a mailed sign-in link's token. */
export interface CollectionPageSearch {
  folder?: string;
  guest?: string;
}

const text = (value: unknown, max: number) => (typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined);

/** Anything malformed is dropped rather than failing the page: the link still opens, at the top level. */
export function validateCollectionPageSearch(search: Record<string, unknown>): CollectionPageSearch {
  return { folder: text(search.folder, 100), guest: text(search.guest, 200) };
}
