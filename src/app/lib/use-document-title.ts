import { useEffect } from 'react';

/** Sets the tab title, so each page is announced and found in history by name. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title ? `${title} · Parcel` : 'Parcel';
  }, [title]);
}
