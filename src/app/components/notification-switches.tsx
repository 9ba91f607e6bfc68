import { useId } from 'react';
import { defineMessages, type MessageDescriptor } from 'react-intl';
import type { NotificationSettings } from '../../contract/dashboard';
import { useIntl } from '../lib/intl';

const messages = defineMessages({
  downloadsLabel: { id: 'common.notificationSwitches.downloads', defaultMessage: 'Email me when it is downloaded' },
  downloadsDescription: {
    id: 'common.notificationSwitches.downloadsHint',
    defaultMessage: 'One mail per visit, naming the recipient when they used their personal link.',
  },
  beforeExpiryLabel: { id: 'common.notificationSwitches.beforeExpiry', defaultMessage: 'Remind me before it expires unseen' },
  beforeExpiryDescription: {
    id: 'common.notificationSwitches.beforeExpiryHint',
    defaultMessage: 'A day before the link expires, if nobody has downloaded anything.',
  },
});

const switches: { key: keyof NotificationSettings; label: MessageDescriptor; description: MessageDescriptor }[] = [
  { key: 'downloads', label: messages.downloadsLabel, description: messages.downloadsDescription },
  { key: 'beforeExpiry', label: messages.beforeExpiryLabel, description: messages.beforeExpiryDescription },
];

/**
 * The two mails a sender can get about a transfer, as checkboxes: used for one transfer (new or
 * sent) and for the workspace's defaults. Saving is the caller's: a form field or an immediate change.
 */
export function NotificationSwitches({
  value,
  onChange,
  disabled = false,
  legend,
}: {
  value: NotificationSettings;
  onChange: (next: NotificationSettings) => void;
  disabled?: boolean;
  legend?: string;
}) {
  const intl = useIntl();
  const id = useId();
  return (
    <fieldset disabled={disabled}>
      <legend className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {legend ?? intl.formatMessage({ id: 'common.notificationSwitches.legend', defaultMessage: 'Notifications' })}
      </legend>
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
                {intl.formatMessage(s.label)}
              </label>
              <p id={`${id}-${s.key}-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
                {intl.formatMessage(s.description)}
              </p>
            </div>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
