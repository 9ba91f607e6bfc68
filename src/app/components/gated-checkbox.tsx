import { useId, type Ref } from 'react';

interface GatedCheckboxProps {
  /** A machine name (a scope, an event type), shown in monospace as the checkbox's label. */
  name: string;
  description: string;
  checked: boolean;
  /** Off and unavailable on the workspace's plan; `gateNote` says why. */
  disabled: boolean;
  gateNote: string;
  onChange: (checked: boolean) => void;
  inputRef?: Ref<HTMLInputElement> | undefined;
}

/**
 * One choice in a list of plan-gated options (API key scopes, webhook events): a bordered card
 * with the name, what it means and, when the plan does not allow it, a note that is also part of
 * the checkbox's accessible description.
 */
export function GatedCheckbox({ name, description, checked, disabled, gateNote, onChange, inputRef }: GatedCheckboxProps) {
  const id = useId();
  const descriptionId = `${id}-description`;
  const gateNoteId = `${id}-gate`;
  return (
    <li
      className={`flex gap-3 rounded-md border p-3 ${
        disabled
          ? 'border-dashed border-zinc-300 bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900/50'
          : 'border-zinc-200 has-checked:border-indigo-400 has-checked:bg-indigo-50/60 dark:border-zinc-800 dark:has-checked:border-indigo-600 dark:has-checked:bg-indigo-950/40'
      }`}
    >
      <input
        ref={inputRef}
        id={id}
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 accent-indigo-600"
        checked={checked && !disabled}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={disabled ? `${descriptionId} ${gateNoteId}` : descriptionId}
      />
      <div className="min-w-0 text-sm">
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={id} className={`font-mono font-medium ${disabled ? 'text-zinc-500 dark:text-zinc-500' : ''}`}>
            {name}
          </label>
          {disabled ? (
            <span
              id={gateNoteId}
              className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200 ring-inset dark:bg-amber-950 dark:text-amber-300 dark:ring-amber-800"
            >
              {gateNote}
            </span>
          ) : null}
        </div>
        <p id={descriptionId} className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
          {description}
        </p>
      </div>
    </li>
  );
}
