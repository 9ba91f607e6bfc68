import { useId } from 'react';
import type { NotificationSettings } from '../../contract/dashboard';

const switches: { key: keyof NotificationSettings; label: string; description: string }[] = [
  { key: 'downloads', label: 'Email me when it is downloaded', description: 'One mail per visit, naming the recipient when they used their personal link.' },
  { key: 'beforeExpiry', label: 'Remind me before it expires unseen', description: 'A day before the link expires, if nobody has downloaded anything.' },
];

/**
 * The two mails a sender can get about a transfer, as checkboxes: used for one transfer (new or
 * sent) and for the workspace's defaults. Saving is the caller's: a form field or an immediate change.
 */
export function NotificationSwitches({
  value,
  onChange,
  disabled = false,
  legend = 'Notifications',
}: {
  value: NotificationSettings;
  onChange: (next: NotificationSettings) => void;
  disabled?: boolean;
  legend?: string;
}) {
  const id = useId();
  return (
    <fieldset disabled={disabled}>
      <legend className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">{legend}</legend>
      <div className="mt-2 space-y-2">
        {switches.map((s) => (
          <div key={s.key} className="flex gap-2.5">
            <input
              id={`${id}-${s.key}`}
              type="checkbox"
              className="mt-0.5 size-4 shrink-0 accent-indigo-600 disabled:opacity-60"
              checked={value[s.key]}
              aria-describedby={`${id}-${s.key}-hint`}
              onChange={(e) => onChange({ ...value, [s.key]: e.target.checked })}
            />
            <div>
              <label htmlFor={`${id}-${s.key}`} className="text-sm text-zinc-800 dark:text-zinc-200">
                {s.label}
              </label>
              <p id={`${id}-${s.key}-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
                {s.description}
              </p>
            </div>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
