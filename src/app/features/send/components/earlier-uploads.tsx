import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { formatBytes } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import type { RememberedFile } from '../../../lib/uploads/upload-session';

type EarlierUpload = RememberedFile & { key: string };

interface EarlierUploadsProps {
  files: EarlierUpload[];
  onRemove: (key: string) => void;
  /** The file being removed now, and why the last removal failed. */
  removing: { key: string; error: unknown } | null;
}

const pathOf = (file: EarlierUpload) => `${file.path ? `${file.path}/` : ''}${file.name}`;

/**
 * The draft's files uploaded completely in an earlier visit, which the uploader no longer holds (the
 * browser forgets picked files when the tab closes): they are part of the draft, done, and need not
 * be added again. Adding one again anyway shows it as uploaded in the uploader instead.
 */
export function EarlierUploads({ files, onRemove, removing }: EarlierUploadsProps) {
  const intl = useIntl();
  if (files.length === 0) return null;
  return (
    <ul
      aria-label={intl.formatMessage({ id: 'send.earlierUploads.label', defaultMessage: 'Uploaded in your earlier visit' })}
      className="divide-y divide-zinc-200 rounded-md border border-zinc-200 bg-white px-4 dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900"
    >
      {files.map((file) => (
        <li key={file.key} className="space-y-1 py-3">
          <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium break-all">{pathOf(file)}</p>
              <p className="text-xs text-zinc-600 dark:text-zinc-400">
                {intl.formatMessage(
                  { id: 'send.earlierUploads.uploaded', defaultMessage: '{size} · <done>Uploaded</done> in your earlier visit' },
                  {
                    size: formatBytes(file.size),
                    done: (chunks) => (
                      <span key="done" className="font-medium text-emerald-700 dark:text-emerald-400">
                        {chunks}
                      </span>
                    ),
                  },
                )}
              </p>
            </div>
            <Button
              variant="secondary"
              className="self-start sm:shrink-0"
              onClick={() => onRemove(file.key)}
              disabled={removing?.key === file.key && removing.error === null}
              aria-label={intl.formatMessage({ id: 'send.earlierUploads.removeNamed', defaultMessage: 'Remove {name}' }, { name: pathOf(file) })}
            >
              {removing?.key === file.key && removing.error === null
                ? intl.formatMessage({ id: 'send.earlierUploads.removing', defaultMessage: 'Removing…' })
                : intl.formatMessage({ id: 'send.earlierUploads.remove', defaultMessage: 'Remove' })}
            </Button>
          </div>
          <FormError error={removing?.key === file.key ? removing.error : null} />
        </li>
      ))}
    </ul>
  );
}
