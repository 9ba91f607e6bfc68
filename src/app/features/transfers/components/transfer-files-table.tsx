import type { TransferFile } from '../../../../contract/transfers';
import { formatBytes } from '../../../lib/format';
import { Section } from '../../../components/section';

const stateLabels: Record<TransferFile['state'], string> = {
  uploading: 'Uploading',
  importing: 'Importing',
  complete: 'Complete',
  failed: 'Failed',
};

function scanLabel(scanResult: string | null): string {
  if (scanResult === null) return 'Not scanned yet';
  if (scanResult === 'clean') return 'Clean';
  return scanResult;
}

const th = 'px-3 py-2 text-left text-xs font-medium tracking-wide text-zinc-600 uppercase dark:text-zinc-400';
const td = 'px-3 py-2 align-top';

export function TransferFilesTable({ files }: { files: TransferFile[] }) {
  return (
    <Section title="Files">
      {files.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">This transfer has no files.</p>
      ) : (
        // Scrolls sideways on a phone rather than squeezing seven columns.
        <div className="-mx-5 overflow-x-auto" tabIndex={0} role="group" aria-label="Files (scrolls sideways)">
          <table className="w-full min-w-[44rem] text-sm">
            <thead className="border-b border-zinc-200 dark:border-zinc-800">
              <tr>
                <th scope="col" className={`${th} pl-5`}>Name</th>
                <th scope="col" className={th}>Path</th>
                <th scope="col" className={`${th} text-right`}>Size</th>
                <th scope="col" className={th}>Type</th>
                <th scope="col" className={th}>Scan</th>
                <th scope="col" className={th}>CRC-32</th>
                <th scope="col" className={`${th} pr-5`}>State</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {files.map((file) => (
                <tr key={file.id}>
                  <th scope="row" className={`${td} pl-5 text-left font-medium break-all`}>
                    {file.name}
                  </th>
                  <td className={`${td} break-all text-zinc-600 dark:text-zinc-400`}>{file.path ?? '—'}</td>
                  <td className={`${td} text-right whitespace-nowrap`}>{formatBytes(file.sizeBytes)}</td>
                  <td className={`${td} break-all`}>{file.mimeType}</td>
                  <td className={td}>{scanLabel(file.scanResult)}</td>
                  <td className={`${td} font-mono`}>{file.crc32 ?? '—'}</td>
                  <td className={`${td} pr-5`}>{stateLabels[file.state] ?? file.state}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
