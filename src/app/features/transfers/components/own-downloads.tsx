import { useState } from 'react';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { useDownloadLinks } from '../api/get-download-links';
import { Section } from '../../../components/section';

const linkClass = 'font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300 break-all';

/** Your own copy of the files: signed links fetched only when asked for, since they expire. */
export function OwnDownloads({ transferId, e2ee }: { transferId: string; e2ee: boolean }) {
  const [requested, setRequested] = useState(false);
  const links = useDownloadLinks(transferId, { enabled: requested && !e2ee });

  if (e2ee) {
    return (
      <Section title="Download files">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          This transfer is end-to-end encrypted: the server holds only ciphertext and cannot decrypt it, so it cannot be downloaded
          here. Open the transfer’s link with its key to download the files.
        </p>
      </Section>
    );
  }

  return (
    <Section title="Download files">
      {!links.data ? (
        <>
          <Button variant="secondary" onClick={() => (requested ? void links.refetch() : setRequested(true))} disabled={links.isFetching}>
            {links.isFetching ? 'Preparing links…' : 'Download files'}
          </Button>
          <FormError error={links.error} className="mt-3" />
        </>
      ) : (
        <div className="space-y-3 text-sm">
          <ul aria-label="Files to download" className="space-y-1">
            {links.data.files.map((file) => (
              <li key={file.fileId} className="flex flex-wrap items-baseline gap-x-2">
                <a href={file.url} download={file.name} className={linkClass}>
                  {file.path ? `${file.path}/${file.name}` : file.name}
                </a>
                <span className="text-zinc-600 dark:text-zinc-400">{formatBytes(file.sizeBytes)}</span>
              </li>
            ))}
          </ul>
          <p>
            <a href={links.data.zip.url} download={links.data.zip.name} className={linkClass}>
              All files as {links.data.zip.name}
            </a>{' '}
            <span className="text-zinc-600 dark:text-zinc-400">({formatBytes(links.data.zip.sizeBytes)})</span>
          </p>
          <p className="text-xs text-zinc-600 dark:text-zinc-400">These links work until {formatDateTime(links.data.expiresAt)}.</p>
        </div>
      )}
    </Section>
  );
}
