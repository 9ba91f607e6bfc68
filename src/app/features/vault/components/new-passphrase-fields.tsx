import { useId, useState, type FormEvent } from 'react';
import type { IntlShape } from 'react-intl';
import { TextField } from '../../../components/text-field';
import { currentIntl, useIntl } from '../../../lib/intl';
import { vaultErrorMessage } from '../utils/vault-errors';
import { atLeast, passphraseStrength, REQUIRED_STRENGTH, strengthLabel, type Strength } from '../utils/passphrase-strength';

export interface NewPassphrase {
  passphrase: string;
  repeated: string;
}

export const emptyPassphrase: NewPassphrase = { passphrase: '', repeated: '' };

/** Why the new passphrase cannot be used yet, or null when it can. */
export function newPassphraseProblem(
  { passphrase, repeated }: NewPassphrase,
  current?: string,
  intl: IntlShape = currentIntl(),
): { field: 'passphrase' | 'repeated'; message: string } | null {
  if (current !== undefined && passphrase === current)
    return { field: 'passphrase', message: intl.formatMessage({ id: 'vault.passphrase.sameAsCurrent', defaultMessage: 'This is your current passphrase: choose a new one.' }) };
  const strength = passphraseStrength(passphrase);
  if (!atLeast(strength, REQUIRED_STRENGTH)) {
    return {
      field: 'passphrase',
      message: intl.formatMessage(
        { id: 'vault.passphrase.tooWeak', defaultMessage: '{strength}. Use a longer passphrase: several unrelated words work well.' },
        { strength: strengthLabel(strength, intl) },
      ),
    };
  }
  if (passphrase !== repeated)
    return { field: 'repeated', message: intl.formatMessage({ id: 'vault.passphrase.notSame', defaultMessage: 'The two passphrases are not the same.' }) };
  return null;
}

const meterColours: Record<Strength, string> = {
  'too-short': 'bg-red-600',
  weak: 'bg-red-600',
  fair: 'bg-amber-500',
  good: 'bg-emerald-600',
  strong: 'bg-emerald-600',
};
const meterSteps: Record<Strength, number> = { 'too-short': 0, weak: 1, fair: 2, good: 3, strong: 4 };

/** Four bars and a word: how hard the passphrase is to guess, said to screen readers as a meter. */
function StrengthMeter({ passphrase, labelledBy }: { passphrase: string; labelledBy: string }) {
  const intl = useIntl();
  const strength = passphraseStrength(passphrase);
  const steps = passphrase === '' ? 0 : meterSteps[strength];
  return (
    <div className="mt-2">
      <div
        role="meter"
        aria-labelledby={labelledBy}
        aria-valuemin={0}
        aria-valuemax={4}
        aria-valuenow={steps}
        aria-valuetext={passphrase === '' ? intl.formatMessage({ id: 'vault.passphrase.nothingTyped', defaultMessage: 'Nothing typed yet' }) : strengthLabel(strength, intl)}
        className="flex gap-1"
      >
        {[1, 2, 3, 4].map((bar) => (
          <span key={bar} className={`h-1.5 flex-1 rounded-full ${bar <= steps ? meterColours[strength] : 'bg-zinc-200 dark:bg-zinc-700'}`} />
        ))}
      </div>
      <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400" aria-hidden="true">
        {passphrase === ''
          ? intl.formatMessage({ id: 'vault.passphrase.advice', defaultMessage: 'Several unrelated words make a strong passphrase that is easy to remember.' })
          : strengthLabel(strength, intl)}
      </p>
    </div>
  );
}

/** A new passphrase, typed twice, with its strength shown as it is typed. */
export function NewPassphraseFields({
  value,
  onChange,
  errors,
  label,
}: {
  value: NewPassphrase;
  onChange: (value: NewPassphrase) => void;
  errors: Partial<Record<'passphrase' | 'repeated', string>>;
  label?: string;
}) {
  const intl = useIntl();
  const meterLabel = useId();
  const fieldLabel = label ?? intl.formatMessage({ id: 'vault.passphrase.label', defaultMessage: 'Passphrase' });
  return (
    <div className="space-y-4">
      <div>
        <TextField
          label={fieldLabel}
          type="password"
          autoComplete="new-password"
          value={value.passphrase}
          onChange={(event) => onChange({ ...value, passphrase: event.target.value })}
          error={errors.passphrase}
        />
        <span id={meterLabel} className="sr-only">
          {intl.formatMessage({ id: 'vault.passphrase.strength', defaultMessage: 'Passphrase strength' })}
        </span>
        <StrengthMeter passphrase={value.passphrase} labelledBy={meterLabel} />
      </div>
      <TextField
        label={intl.formatMessage({ id: 'vault.passphrase.again', defaultMessage: '{label}, again' }, { label: fieldLabel })}
        type="password"
        autoComplete="new-password"
        value={value.repeated}
        onChange={(event) => onChange({ ...value, repeated: event.target.value })}
        error={errors.repeated}
      />
    </div>
  );
}

/**
 * A form that sets a new passphrase (create, recover, change): the two fields, checked only once submitted, and the
 * work run with the passphrase once they are right, its refusal said in the owner's words. `current` is the
 * passphrase being replaced, which the new one must differ from.
 */
export function useNewPassphraseForm(current?: string) {
  const intl = useIntl();
  const [value, setValue] = useState<NewPassphrase>(emptyPassphrase);
  const [tried, setTried] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const problem = tried ? newPassphraseProblem(value, current, intl) : null;

  const submit = (work: (passphrase: string) => Promise<void>) => (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (newPassphraseProblem(value, current, intl)) return;
    setPending(true);
    setError(null);
    void work(value.passphrase).then(
      () => setPending(false),
      (cause: unknown) => {
        setError(vaultErrorMessage(cause, intl));
        setPending(false);
      },
    );
  };

  return { fields: { value, onChange: setValue, errors: problem ? { [problem.field]: problem.message } : {} }, pending, error, submit };
}
