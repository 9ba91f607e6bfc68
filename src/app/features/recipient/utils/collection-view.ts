import type { CollectionView } from '../components/collection-items';

/** Where a visitor's choice of list or grid is remembered on this device. */
export const COLLECTION_VIEW_KEY = 'parcel-collection-view';

/** The view this device remembers ('list' when nothing, or storage is blocked). */
export function storedCollectionView(): CollectionView {
  try {
    return window.localStorage.getItem(COLLECTION_VIEW_KEY) === 'grid' ? 'grid' : 'list';
  } catch {
    return 'list';
  }
}
