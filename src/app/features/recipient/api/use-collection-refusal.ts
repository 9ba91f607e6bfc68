import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { isApiRequestError, type ApiRequestError } from '../../../lib/api-error';
import { watchRequestErrors } from '../../../lib/watch-request-errors';
import { collectionKeys, KEY_KIND_INDEX } from './public-collection-api';

/**
 * A refusal that ends what the page can show, wherever it came from: the password is needed (again),
 * the visitor is not (or no longer) a guest, the collection is gone or suspended. A guest removed
 * while browsing meets it on their next click (a folder, a page of files, a download), so every
 * request of the page is watched here rather than each one handling it.
 */
export function endsAccess(error: ApiRequestError, kind: unknown): boolean {
  // A wrong password (also 401) is the password form's own business.
  if (error.status === 401) return error.code !== 'wrong_password';
  if (error.status === 403) return error.code === 'guests_only';
  // A used or expired sign-in link is the sign-in's own business, not the collection's.
  if (error.status === 410) return error.details.reason !== 'expired';
  // A folder that is gone is not a collection that is gone; the collection itself answers that.
  return error.status === 404 && kind === 'detail';
}

const isUnder = (key: readonly unknown[] | undefined, prefix: readonly unknown[]): key is readonly unknown[] =>
  !!key && prefix.every((part, i) => key[i] === part);

/**
 * Watches every query and mutation under the collection's key. Returns the latest refusal (or
 * null) and a way to clear it once the visitor has done something about it (unlocked, signed in).
 * A 404 inside the collection (a folder deleted meanwhile) asks the collection itself again, which
 * answers 404 if it went with it.
 */
export function useCollectionRefusal(slug: string) {
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<ApiRequestError | null>(null);

  useEffect(() => {
    const prefix = collectionKeys.all(slug);
    function consider(key: readonly unknown[] | undefined, error: unknown) {
      if (!isUnder(key, prefix) || !isApiRequestError(error)) return;
      const kind = key[KEY_KIND_INDEX];
      if (endsAccess(error, kind)) setRefusal(error);
      else if (error.status === 404 && kind !== 'detail') {
        void queryClient.invalidateQueries({ queryKey: prefix, predicate: (query) => query.queryKey[KEY_KIND_INDEX] === 'detail' });
      }
    }
    return watchRequestErrors(queryClient, consider);
  }, [queryClient, slug]);

  const clear = useCallback(() => setRefusal(null), []);
  return { refusal, clear };
}
