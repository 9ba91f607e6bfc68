import { useId, useState, type Ref } from 'react';
import { Button } from '../../../components/button';
import { inputClass } from '../../../components/text-field';
import { useIntl } from '../../../lib/intl';
import { isMimeType, notAFileType, parseTypes, typePresets } from '../utils/request-form';

interface AllowedTypesFieldProps {
  value: string[];
  onChange: (types: string[]) => void;
  /** Types typed but not added yet: the form adds them when it is sent. */
  pending: string;
  onPendingChange: (text: string) => void;
  error: string | undefined;
  inputRef: Ref<HTMLInputElement>;
}

/** Types as typed, an example rather than words. */
const TYPES_EXAMPLE = 'application/zip, text/*';

const chipClass =
  'inline-flex items-center gap-1 rounded-full bg-indigo-50 py-0.5 pe-1 ps-2.5 text-xs font-medium text-indigo-800 ring-1 ring-indigo-200 ring-inset dark:bg-indigo-950 dark:text-indigo-200 dark:ring-indigo-800';

/**
 * The file types a submission may hold: presets to switch on and off (Images, PDF…), and any MIME
 * type typed in; each chosen type is a chip with its own Remove button. None chosen: any type.
 */
export function AllowedTypesField({ value, onChange, pending, onPendingChange, error, inputRef }: AllowedTypesFieldProps) {
  const intl = useIntl();
  const id = useId();
  const [typo, setTypo] = useState<string | null>(null);
  const shownError = typo ?? error;
  const chosen = new Set(value);

  function toggle(type: string) {
    onChange(chosen.has(type) ? value.filter((t) => t !== type) : [...value, type]);
  }

  function addPending() {
    const typed = parseTypes(pending);
    const wrong = typed.filter((t) => !isMimeType(t));
    const fresh = typed.filter((t) => isMimeType(t) && !chosen.has(t));
    if (fresh.length > 0) onChange([...value, ...new Set(fresh)]);
    onPendingChange(wrong.join(', '));
    setTypo(wrong.length > 0 ? notAFileType(wrong[0]!, intl) : null);
  }

  return (
    <fieldset className="min-w-0">
      <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {intl.formatMessage({ id: 'requests.allowedTypes.legend', defaultMessage: 'Allowed file types' })}
      </legend>
      <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
        {value.length === 0
          ? intl.formatMessage({ id: 'requests.allowedTypes.anyAccepted', defaultMessage: 'Any type is accepted. Choose types to accept only those.' })
          : intl.formatMessage({ id: 'requests.allowedTypes.onlyThese', defaultMessage: 'Only files of these types are accepted.' })}
      </p>
      <div role="group" aria-label={intl.formatMessage({ id: 'requests.allowedTypes.presets', defaultMessage: 'Common types' })} className="mt-2 flex flex-wrap gap-2">
        {typePresets.map((preset) => (
          <Button
            key={preset.type}
            variant="secondary"
            aria-pressed={chosen.has(preset.type)}
            className="px-2.5 py-1 text-xs aria-pressed:border-indigo-400 aria-pressed:bg-indigo-50 aria-pressed:text-indigo-800 dark:aria-pressed:border-indigo-600 dark:aria-pressed:bg-indigo-950 dark:aria-pressed:text-indigo-200"
            onClick={() => toggle(preset.type)}
          >
            {intl.formatMessage(preset.label)}
            <span className="font-mono text-[11px] opacity-70">{preset.type}</span>
          </Button>
        ))}
      </div>
      {value.length > 0 ? (
        <ul aria-label={intl.formatMessage({ id: 'requests.allowedTypes.chosen', defaultMessage: 'Chosen types' })} className="mt-3 flex flex-wrap gap-1.5">
          {value.map((type) => (
            <li key={type} className={chipClass}>
              <span className="font-mono break-all">{type}</span>
              <button
                type="button"
                aria-label={intl.formatMessage({ id: 'requests.allowedTypes.remove', defaultMessage: 'Remove {type}' }, { type })}
                onClick={() => onChange(value.filter((t) => t !== type))}
                className="rounded-full p-0.5 hover:bg-indigo-100 dark:hover:bg-indigo-900"
              >
                <svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
                  <path d="M6 6l8 8M14 6l-8 8" />
                </svg>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <label htmlFor={`${id}-other`} className="mt-3 block text-sm text-zinc-800 dark:text-zinc-200">
        {intl.formatMessage({ id: 'requests.allowedTypes.otherLabel', defaultMessage: 'Other types' })}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          ref={inputRef}
          id={`${id}-other`}
          value={pending}
          placeholder={TYPES_EXAMPLE}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={`${id}-other-hint${shownError ? ` ${id}-error` : ''}`}
          onChange={(event) => {
            onPendingChange(event.target.value);
            setTypo(null);
          }}
          onKeyDown={(event) => {
            // Enter adds the types instead of sending the form.
            if (event.key === 'Enter') {
              event.preventDefault();
              addPending();
            }
          }}
          className={`${inputClass} min-w-0 font-mono`}
        />
        <Button variant="secondary" onClick={addPending} disabled={pending.trim() === ''}>
          {intl.formatMessage({ id: 'requests.allowedTypes.add', defaultMessage: 'Add' })}
        </Button>
      </div>
      <p id={`${id}-other-hint`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage(
          { id: 'requests.allowedTypes.otherHint', defaultMessage: 'MIME types, or a whole family such as <code>text/*</code>, separated by commas.' },
          { code: (chunks) => <code key="code">{chunks}</code> },
        )}
      </p>
      {shownError ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
          {shownError}
        </p>
      ) : null}
    </fieldset>
  );
}
