import { type ImportStatusResult, ImportRow } from '../../imports';
import { useIntl } from '../../../lib/intl';

/** A URL import on the draft, as it was registered (or found on the draft again after a reload). */
export interface DraftImport {
  fileId: string;
  name: string;
  source: string | null;
}

interface DraftImportsProps {
  imports: DraftImport[];
  statuses: ReadonlyMap<string, ImportStatusResult>;
  onRemove: (fileId: string) => void;
  /** The import being removed now, and why the last removal failed. */
  removing: { fileId: string; error: unknown } | null;
}

/** The draft's files from URLs, under the uploader: each with its progress, "Ready", or why it failed and a way to remove it. */
export function DraftImports({ imports, statuses, onRemove, removing }: DraftImportsProps) {
  const intl = useIntl();
  if (imports.length === 0) return null;
  return (
    <ul aria-label={intl.formatMessage({ id: 'send.draftImports.label', defaultMessage: 'Files from URLs' })} className="divide-y divide-zinc-200 rounded-md border border-zinc-200 bg-white px-4 dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
      {imports.map((entry) => (
        <ImportRow
          key={entry.fileId}
          name={entry.name}
          source={entry.source}
          query={statuses.get(entry.fileId) ?? { status: undefined, error: null }}
          onRemove={() => onRemove(entry.fileId)}
          removing={removing?.fileId === entry.fileId && removing.error === null}
          removeError={removing?.fileId === entry.fileId ? removing.error : null}
        />
      ))}
    </ul>
  );
}
