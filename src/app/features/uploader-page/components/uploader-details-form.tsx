import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/button';
import { TextAreaField, TextField } from '../../../components/text-field';
import type { UploaderDetails } from '../api/public-request-api';
import { detailErrors, detailFields, type DetailField } from '../utils/request-rules';
import { useIntl } from '../../../lib/intl';
import { useHydrated } from '../../../lib/server-render';

/**
 * Step 1: who is sending. Name always, email when the request requires it (checked as it is typed
 * once the field was left, or on Continue), and an optional message for the requester.
 */
export function UploaderDetailsForm({
  initial,
  requireEmail,
  onContinue,
}: {
  initial: UploaderDetails;
  requireEmail: boolean;
  onContinue: (details: UploaderDetails) => void;
}) {
  const intl = useIntl();
  const id = useId();
  const [details, setDetails] = useState(initial);
  const [attempted, setAttempted] = useState(false);
  const [touched, setTouched] = useState<Partial<Record<DetailField, boolean>>>({});
  const [focusRequest, setFocusRequest] = useState<{ field: DetailField } | null>(null);
  const inputs = useRef<Partial<Record<DetailField, HTMLInputElement | HTMLTextAreaElement | null>>>({});

  useEffect(() => {
    if (focusRequest) inputs.current[focusRequest.field]?.focus();
  }, [focusRequest]);

  const all = detailErrors(details, requireEmail, intl);
  const shown = (field: DetailField) => (attempted || touched[field] ? all[field] : undefined);

  const set = (field: DetailField) => (value: string) => setDetails((current) => ({ ...current, [field]: value }));
  const leave = (field: DetailField) => () =>
    setTouched((current) => (details[field].trim() === '' || current[field] ? current : { ...current, [field]: true }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAttempted(true);
    const invalid = detailFields.find((field) => all[field]);
    if (invalid) {
      setFocusRequest({ field: invalid });
      return;
    }
    onContinue(details);
  }

  // Until a server-rendered page is hydrated (its scripts start once it has painted), what is typed
  // would not reach the page's state and Continue would submit the form to the server: the form waits.
  const hydrated = useHydrated();

  return (
    <form noValidate onSubmit={submit} className="space-y-5" aria-labelledby={`${id}-heading`}>
      <div>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({ id: 'upload.step', defaultMessage: 'Step {step, number} of {steps, number}' }, { step: 1, steps: 2 })}
        </p>
        <h2 id={`${id}-heading`} className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">
          {intl.formatMessage({ id: 'upload.details.heading', defaultMessage: 'Your details' })}
        </h2>
      </div>
      <TextField
        label={intl.formatMessage({ id: 'upload.details.name', defaultMessage: 'Your name' })}
        name="name"
        autoComplete="name"
        disabled={!hydrated}
        required
        maxLength={100}
        value={details.name}
        onChange={(e) => set('name')(e.target.value)}
        onBlur={leave('name')}
        error={shown('name')}
        className="[&_input]:min-h-11 [&_input]:text-base sm:[&_input]:text-sm"
        ref={(element) => {
          inputs.current.name = element;
        }}
      />
      <TextField
        label={
          requireEmail
            ? intl.formatMessage({ id: 'upload.details.email', defaultMessage: 'Your email address' })
            : intl.formatMessage({ id: 'upload.details.emailOptional', defaultMessage: 'Your email address (optional)' })
        }
        name="email"
        type="email"
        inputMode="email"
        autoComplete="email"
        disabled={!hydrated}
        required={requireEmail}
        maxLength={254}
        value={details.email}
        onChange={(e) => set('email')(e.target.value)}
        onBlur={leave('email')}
        error={shown('email')}
        hint={intl.formatMessage({ id: 'upload.details.emailHint', defaultMessage: 'So they can reply to you about what you send.' })}
        className="[&_input]:min-h-11 [&_input]:text-base sm:[&_input]:text-sm"
        ref={(element) => {
          inputs.current.email = element;
        }}
      />
      <TextAreaField
        label={intl.formatMessage({ id: 'upload.details.message', defaultMessage: 'Message (optional)' })}
        name="message"
        disabled={!hydrated}
        rows={4}
        maxLength={2000}
        value={details.message}
        onChange={(e) => set('message')(e.target.value)}
        onBlur={leave('message')}
        error={shown('message')}
        className="[&_textarea]:text-base sm:[&_textarea]:text-sm"
        ref={(element) => {
          inputs.current.message = element;
        }}
      />
      <Button type="submit" disabled={!hydrated} className="min-h-12 w-full px-6 text-base sm:w-auto">
        {intl.formatMessage({ id: 'upload.details.continue', defaultMessage: 'Continue' })}
      </Button>
    </form>
  );
}
