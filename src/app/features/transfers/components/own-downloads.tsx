import { useState, type ReactNode } from 'react';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { useDownloadLinks } from '../api/get-download-links';
import { Section } from '../../../components/section';

const linkClass = 'font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300 break-all';

/** Your own copy of the files: signed links fetched only when asked for, since they expire. */
export function OwnDownloads({ transferId, e2ee }: { transferId: string; e2ee: boolean }) {
  const intl = useIntl();
  const title = intl.formatMessage({ id: 'transfers.ownDownloads.title', defaultMessage: 'Download files' });
  const [requested, setRequested] = useState(false);
  const links = useDownloadLinks(transferId, { enabled: requested && !e2ee });
  const data = links.data;

  if (e2ee) {
    return (
      <Section title={title}>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({
            id: 'transfers.ownDownloads.encrypted',
            defaultMessage:
              'This transfer is end-to-end encrypted: the server holds only ciphertext and cannot decrypt it, so it cannot be downloaded here. Open the transfer’s link with its key to download the files.',
          })}
        </p>
      </Section>
    );
  }

  return (
    <Section title={title}>
      {!data ? (
        <>
          <Button variant="secondary" onClick={() => (requested ? void links.refetch() : setRequested(true))} disabled={links.isFetching}>
            {links.isFetching
              ? intl.formatMessage({ id: 'transfers.ownDownloads.preparing', defaultMessage: 'Preparing links…' })
              : intl.formatMessage({ id: 'transfers.ownDownloads.button', defaultMessage: 'Download files' })}
          </Button>
          <FormError error={links.error} className="mt-3" />
        </>
      ) : (
        <div className="space-y-3 text-sm">
          <ul aria-label={intl.formatMessage({ id: 'transfers.ownDownloads.listLabel', defaultMessage: 'Files to download' })} className="space-y-1">
            {data.files.map((file) => (
              <li key={file.fileId} className="flex flex-wrap items-baseline gap-x-2">
                <a href={file.url} download={file.name} className={linkClass}>
                  {file.path ? [file.path, file.name].join('/') : file.name}
                </a>
                <span className="text-zinc-600 dark:text-zinc-400">{formatBytes(file.sizeBytes)}</span>
              </li>
            ))}
          </ul>
          <p>
            {intl.formatMessage(
              { id: 'transfers.ownDownloads.zip', defaultMessage: '<link>All files as {name}</link> <muted>({size})</muted>' },
              {
                link: (chunks: ReactNode[]) => (
                  <a key="link" href={data.zip.url} download={data.zip.name} className={linkClass}>
                    {chunks}
                  </a>
                ),
                muted: (chunks: ReactNode[]) => (
                  <span key="muted" className="text-zinc-600 dark:text-zinc-400">
                    {chunks}
                  </span>
                ),
                name: <bdi key="name">{data.zip.name}</bdi>,
                size: formatBytes(data.zip.sizeBytes),
              },
            )}
          </p>
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage(
              { id: 'transfers.ownDownloads.linksExpire', defaultMessage: 'These links work until {date}.' },
              { date: formatDateTime(data.expiresAt) },
            )}
          </p>
        </div>
      )}
    </Section>
  );
}
