import { useId } from 'react';
import { defineMessages } from 'react-intl';
import type { CollectionVisibility } from '../../../../../contract/collections';
import { Badge, type BadgeTone } from '../../../../components/badge';
import { useIntl } from '../../../../lib/intl';

/** The visibilities, in the order they are offered. */
const visibilities: readonly CollectionVisibility[] = ['private', 'public', 'password'];

const visibilityLabels = defineMessages<CollectionVisibility>({
  private: { id: 'collections.visibility.private', defaultMessage: 'Private' },
  public: { id: 'collections.visibility.public', defaultMessage: 'Public' },
  password: { id: 'collections.visibility.password', defaultMessage: 'Password' },
});

const visibilityDescriptions = defineMessages<CollectionVisibility>({
  private: { id: 'collections.visibility.privateDescription', defaultMessage: 'Only guests you invite, once they sign in with their email address.' },
  public: { id: 'collections.visibility.publicDescription', defaultMessage: 'Anyone with the link.' },
  password: { id: 'collections.visibility.passwordDescription', defaultMessage: 'Anyone with the link and the password.' },
});

const badgeTones: Record<CollectionVisibility, BadgeTone> = { private: 'neutral', password: 'accent', public: 'success' };

export function VisibilityBadge({ visibility }: { visibility: CollectionVisibility }) {
  const intl = useIntl();
  return <Badge tone={badgeTones[visibility]}>{intl.formatMessage(visibilityLabels[visibility])}</Badge>;
}

/** The three visibilities as a radio group, each with what it means. */
export function VisibilityOptions({
  legend,
  value,
  onChange,
  disabled = false,
}: {
  legend: string;
  value: CollectionVisibility;
  onChange: (visibility: CollectionVisibility) => void;
  disabled?: boolean;
}) {
  const intl = useIntl();
  const name = useId();
  return (
    <fieldset disabled={disabled}>
      <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{legend}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-3">
        {visibilities.map((visibility) => (
          <VisibilityOption
            key={visibility}
            name={name}
            value={visibility}
            label={intl.formatMessage(visibilityLabels[visibility])}
            description={intl.formatMessage(visibilityDescriptions[visibility])}
            checked={value === visibility}
            onChange={() => onChange(visibility)}
          />
        ))}
      </div>
    </fieldset>
  );
}

function VisibilityOption({
  name,
  value,
  label,
  description,
  checked,
  onChange,
}: {
  name: string;
  value: string;
  label: string;
  description: string;
  checked: boolean;
  onChange: () => void;
}) {
  const id = useId();
  return (
    // The whole box is the label, so a tap anywhere on it chooses it.
    <label
      htmlFor={id}
      className="flex cursor-pointer gap-3 rounded-md border border-zinc-200 p-3 has-checked:border-indigo-400 has-checked:bg-indigo-50/60 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600 dark:border-zinc-800 dark:has-checked:border-indigo-600 dark:has-checked:bg-indigo-950/40 dark:has-focus-visible:outline-indigo-400"
    >
      <input
        id={id}
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={onChange}
        // Named by the label line alone; the line under it is its description.
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-description`}
        className="mt-0.5 size-4 shrink-0 accent-indigo-600 focus-visible:outline-none"
      />
      <span className="min-w-0 text-sm">
        <span id={`${id}-label`} className="font-medium">
          {label}
        </span>
        <span id={`${id}-description`} className="mt-0.5 block text-xs text-zinc-600 dark:text-zinc-400">
          {description}
        </span>
      </span>
    </label>
  );
}
