import { useEffect } from 'react';
import { useIntl } from './intl';

/** The product's name: a brand, the same in every language. */
const PRODUCT_NAME = 'Parcel';

/** Sets the tab title, so each page is announced and found in history by name. */
export function useDocumentTitle(title: string) {
  const intl = useIntl();
  const shown = title ? intl.formatMessage({ id: 'pages.documentTitle', defaultMessage: '{title} · Parcel' }, { title }) : PRODUCT_NAME;
  useEffect(() => {
    document.title = shown;
  }, [shown]);
}
