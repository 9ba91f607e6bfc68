import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { isApiRequestError } from '../../../lib/api-error';
import { triggerDownload } from '../utils/trigger-download';
import { collectionDownloadLinksQueryOptions, type CollectionDownloadLinks } from './public-collection-api';
import { endsAccess } from './use-collection-refusal';

/** What is being prepared: `all`, a folder's id or a file's id. */
export type DownloadTarget = string;

/**
 * Downloads of a collection: each one asks the API for signed links when clicked and hands the URL
 * to the browser, whose download manager fetches (and resumes) it; nothing passes through the page.
 *
 * A zip is always asked for afresh: that request re-checks the visitor's access, so a removed guest
 * or a changed password is caught there. A file's link is reused while it has time left, but first
 * checked with a HEAD (which counts nothing): a refused one (410, 403) means the access it was made
 * under ended, and asking for new links then says why (the page shows it) or gives one that works.
 */
export function useCollectionDownloads(slug: string, unlockToken: string | null) {
  const queryClient = useQueryClient();
  const [preparing, setPreparing] = useState<DownloadTarget | null>(null);
  const [error, setError] = useState<unknown>(null);

  const links = useCallback(
    (folderId: string | undefined, fresh: boolean): Promise<CollectionDownloadLinks> => {
      const options = collectionDownloadLinksQueryOptions(slug, unlockToken, folderId);
      return queryClient.fetchQuery(fresh ? { ...options, staleTime: 0 } : options);
    },
    [queryClient, slug, unlockToken],
  );

  const start = useCallback(async (target: DownloadTarget, urlFor: () => Promise<string>) => {
    setPreparing(target);
    setError(null);
    try {
      triggerDownload(await urlFor());
    } catch (cause) {
      // A refusal replaces the whole page (useCollectionRefusal); anything else is said beside the buttons.
      if (!(isApiRequestError(cause) && endsAccess(cause, 'download-links'))) setError(cause);
    } finally {
      setPreparing(null);
    }
  }, []);

  /** Everything (`folderId` undefined), or one folder with all under it, as one zip. */
  const downloadZip = useCallback(
    (folderId: string | undefined) => start(folderId ?? 'all', async () => (await links(folderId, true)).zip.url),
    [links, start],
  );

  /** A working signed link to the file: to download it, or to play or show it in the lightbox. */
  const fileLink = useCallback(
    async (file: { id: string; folderId: string | null }) => {
      // The links of the file's own folder (everything, for a file at the top level).
      const scope = file.folderId ?? undefined;
      const url = fileUrl(await links(scope, false), file.id);
      if (await linkWorks(url)) return url;
      return fileUrl(await links(scope, true), file.id);
    },
    [links],
  );

  const downloadFile = useCallback((file: { id: string; folderId: string | null }) => start(file.id, () => fileLink(file)), [fileLink, start]);

  return { downloadZip, downloadFile, fileLink, preparing, error };
}

function fileUrl(links: CollectionDownloadLinks, fileId: string): string {
  const url = links.files.find((f) => f.fileId === fileId)?.url;
  if (!url) throw new Error('This file is no longer in the collection. Reload the page to see what it holds now.');
  return url;
}

/** False only when the server refuses the link; a HEAD that cannot be made (offline, another origin) leaves it to the download itself. */
async function linkWorks(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { method: 'HEAD', credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' });
    return !(response.status >= 400 && response.status < 500);
  } catch {
    return true;
  }
}
