import { useId, type Ref } from 'react';
import { Button } from '../../../components/button';
import { GatedCheckbox } from '../../../components/gated-checkbox';
import { useIntl } from '../../../lib/intl';
import { eventDescription, isAllowedEvent, subscribableEvents } from '../utils/webhook-display';

interface EventPickerProps {
  plan: 'free' | 'paid';
  chosen: ReadonlySet<string>;
  onChange: (chosen: ReadonlySet<string>) => void;
  error?: string | undefined;
  firstRef?: Ref<HTMLInputElement>;
}

/** The event types as checkboxes with what each means; on the free plan the paid ones are shown, off. */
export function EventPicker({ plan, chosen, onChange, error, firstRef }: EventPickerProps) {
  const intl = useIntl();
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
      <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{intl.formatMessage({ id: 'webhooks.eventPicker.legend', defaultMessage: 'Events' })}</legend>
      <div className="mt-1 flex items-start justify-between gap-3">
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({
            id: 'webhooks.eventPicker.help',
            defaultMessage: 'The endpoint gets only the events you choose. A test event can be sent to it at any time.',
          })}
        </p>
        <Button
          variant="secondary"
          className="shrink-0 px-2.5 py-1 text-xs"
          onClick={() => onChange(allChosen ? new Set() : new Set(allowed))}
        >
          {allChosen
            ? intl.formatMessage({ id: 'webhooks.eventPicker.clearAll', defaultMessage: 'Clear all' })
            : intl.formatMessage({ id: 'webhooks.eventPicker.selectAll', defaultMessage: 'Select all' })}
        </Button>
      </div>
      {error ? (
        <p id={errorId} className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <ul className="mt-3 grid gap-2">
        {subscribableEvents.map((type, index) => (
          <GatedCheckbox
            key={type}
            name={type}
            description={eventDescription(type, intl)}
            gateNote={intl.formatMessage({ id: 'webhooks.eventPicker.paidPlan', defaultMessage: 'Paid plan' })}
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
