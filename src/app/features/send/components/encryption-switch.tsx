import { useId } from 'react';
import { useIntl } from '../../../lib/intl';

/**
 * "End-to-end encrypt", chosen before the first file: the draft is made encrypted or not, and every file's
 * registered size depends on it. What it means is said beside it, since losing the link loses the files.
 */
export function EncryptionSwitch({ checked, disabled, onChange }: { checked: boolean; disabled: boolean; onChange: (on: boolean) => void }) {
  const intl = useIntl();
  const id = useId();
  return (
    <div className="flex gap-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="mt-0.5 size-4 shrink-0 accent-indigo-600 disabled:opacity-60"
        checked={checked}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.checked)}
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {intl.formatMessage({ id: 'send.encryption.label', defaultMessage: 'End-to-end encrypt' })}
        </label>
        <p id={`${id}-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
          {disabled
            ? intl.formatMessage({
                id: 'send.encryption.hintChosen',
                defaultMessage:
                  'Files are encrypted in this browser: the service never sees their names, contents or thumbnails. The link carries the key, so lose the link and nobody, not even us, can open the files. Chosen before the first file: start a new transfer to change it.',
              })
            : intl.formatMessage({
                id: 'send.encryption.hint',
                defaultMessage:
                  'Files are encrypted in this browser: the service never sees their names, contents or thumbnails. The link carries the key, so lose the link and nobody, not even us, can open the files.',
              })}
        </p>
      </div>
    </div>
  );
}
