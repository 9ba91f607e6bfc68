import { useId, type Ref } from 'react';
import { webhookEventDescriptions, type WebhookEventType } from '../../../../contract/webhook-events';
import { Button } from '../../../components/button';
import { isAllowedEvent, subscribableEvents } from '../utils/webhook-display';

interface EventPickerProps {
  plan: 'free' | 'paid';
  chosen: ReadonlySet<string>;
  onChange: (chosen: ReadonlySet<string>) => void;
  error?: string | undefined;
  firstRef?: Ref<HTMLInputElement>;
}

/** The event types as checkboxes with what each means; on the free plan the paid ones are shown, off. */
export function EventPicker({ plan, chosen, onChange, error, firstRef }: EventPickerProps) {
  const errorId = useId();
  const allowed = subscribableEvents.filter((type) => isAllowedEvent(type, plan));
  const allChosen = allowed.every((type) => chosen.has(type));

  function toggle(type: string, on: boolean) {
    const next = new Set(chosen);
    if (on) next.add(type);
    else next.delete(type);
    onChange(next);
  }

  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">Events</legend>
      <div className="mt-1 flex items-start justify-between gap-3">
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          The endpoint gets only the events you choose. A test event can be sent to it at any time.
        </p>
        <Button
          variant="secondary"
          className="shrink-0 px-2.5 py-1 text-xs"
          onClick={() => onChange(allChosen ? new Set() : new Set(allowed))}
        >
          {allChosen ? 'Clear all' : 'Select all'}
        </Button>
      </div>
      {error ? (
        <p id={errorId} className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <ul className="mt-3 grid gap-2">
        {subscribableEvents.map((type, index) => (
          <EventOption
            key={type}
            type={type}
            checked={chosen.has(type)}
            disabled={!isAllowedEvent(type, plan)}
            onChange={(on) => toggle(type, on)}
            inputRef={index === 0 ? firstRef : undefined}
          />
        ))}
      </ul>
    </fieldset>
  );
}

interface EventOptionProps {
  type: WebhookEventType;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
  inputRef?: Ref<HTMLInputElement> | undefined;
}

function EventOption({ type, checked, disabled, onChange, inputRef }: EventOptionProps) {
  const id = useId();
  const descriptionId = `${id}-description`;
  const planNoteId = `${id}-plan`;
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
        aria-describedby={disabled ? `${descriptionId} ${planNoteId}` : descriptionId}
      />
      <div className="min-w-0 text-sm">
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={id} className={`font-mono font-medium ${disabled ? 'text-zinc-500 dark:text-zinc-500' : ''}`}>
            {type}
          </label>
          {disabled ? (
            <span id={planNoteId} className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-amber-200 ring-inset dark:bg-amber-950 dark:text-amber-300 dark:ring-amber-800">
              Paid plan
            </span>
          ) : null}
        </div>
        <p id={descriptionId} className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
          {webhookEventDescriptions[type]}
        </p>
      </div>
    </li>
  );
}

