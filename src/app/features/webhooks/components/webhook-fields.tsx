import { createRef, useEffect, useState } from 'react';
import { webhookEventTypes } from '../../../../contract/webhook-events';
import { TextField } from '../../../components/text-field';
import { firstInvalid, type FieldErrors } from '../../../lib/form-errors';
import { useIntl } from '../../../lib/intl';
import { maxDescriptionLength, validateWebhookForm, webhookFields, webhookServerErrors, type WebhookField } from '../utils/form-validation';
import { isAllowedEvent } from '../utils/webhook-display';
import { EventPicker } from './event-picker';

interface WebhookFieldValues {
  url: string;
  description: string;
  events: readonly string[];
}

/**
 * The state both endpoint forms share: the URL, description and events, their errors (the
 * browser's after a first submit, the server's until the field is edited), and focus on the
 * first invalid field.
 */
export function useWebhookFields({ mode, plan, initial }: { mode: 'push' | 'pull'; plan: 'free' | 'paid'; initial: WebhookFieldValues }) {
  const intl = useIntl();
  const [url, setUrl] = useState(initial.url);
  const [description, setDescription] = useState(initial.description);
  const [events, setEvents] = useState<ReadonlySet<string>>(() => new Set(initial.events));
  const [attempted, setAttempted] = useState(false);
  const [fromServer, setFromServer] = useState<FieldErrors<WebhookField>>({});
  const [focusRequest, setFocusRequest] = useState<{ field: WebhookField } | null>(null);
  const [refs] = useState(() => ({
    url: createRef<HTMLInputElement>(),
    description: createRef<HTMLInputElement>(),
    events: createRef<HTMLInputElement>(),
  }));

  useEffect(() => {
    if (focusRequest) refs[focusRequest.field].current?.focus();
  }, [focusRequest, refs]);

  // Events the plan no longer delivers (a paid plan that ended) are left out of what is sent.
  const chosenEvents = webhookEventTypes.filter((type) => events.has(type) && isAllowedEvent(type, plan));
  const clientErrors = validateWebhookForm({ mode, url, description, events: new Set(chosenEvents) }, intl);
  const errors: FieldErrors<WebhookField> = {};
  for (const field of webhookFields) errors[field] = (attempted ? clientErrors[field] : undefined) ?? fromServer[field];

  const focusFirst = (byField: FieldErrors<WebhookField>) => {
    const invalid = firstInvalid(byField, webhookFields);
    if (invalid) setFocusRequest({ field: invalid });
    return invalid;
  };

  return {
    values: { url: url.trim(), description: description.trim(), events: chosenEvents },
    errors,
    refs,
    set: { url: setUrl, description: setDescription, events: setEvents },
    raw: { url, description, events },
    edited: (field: WebhookField) => setFromServer((current) => ({ ...current, [field]: undefined })),
    /** Starts a submit: shows the browser's errors; true when the form may be sent. */
    submit(): boolean {
      setAttempted(true);
      setFromServer({});
      return focusFirst(clientErrors) === undefined;
    },
    /** After a successful send: errors show again only from the next submit. */
    sent: () => setAttempted(false),
    serverRefused(failure: unknown) {
      const byField = webhookServerErrors(failure);
      setFromServer(byField);
      focusFirst(byField);
    },
  };
}

export type WebhookFieldsState = ReturnType<typeof useWebhookFields>;

interface WebhookFieldsProps {
  form: WebhookFieldsState;
  mode: 'push' | 'pull';
  plan: 'free' | 'paid';
  /** Help under the fields: shown when creating, not when editing. */
  hints?: boolean;
  onEdit?: () => void;
}

/** The URL (push endpoints only), description and event fields of an endpoint form. */
export function WebhookFields({ form, mode, plan, hints = false, onEdit }: WebhookFieldsProps) {
  const intl = useIntl();
  const change = (field: WebhookField) => {
    form.edited(field);
    onEdit?.();
  };
  return (
    <>
      {mode === 'push' ? (
        <TextField
          ref={form.refs.url}
          label={intl.formatMessage({ id: 'webhooks.fields.urlLabel', defaultMessage: 'Endpoint URL' })}
          type="url"
          inputMode="url"
          {...(hints
            ? {
                placeholder: 'https://hooks.example.com/parcel',
                hint: intl.formatMessage({
                  id: 'webhooks.fields.urlHint',
                  defaultMessage: 'An https address on the public internet. Private and local addresses are refused.',
                }),
              }
            : {})}
          value={form.raw.url}
          maxLength={2048}
          autoComplete="off"
          spellCheck={false}
          error={form.errors.url}
          onChange={(event) => {
            form.set.url(event.target.value);
            change('url');
          }}
        />
      ) : null}
      <TextField
        ref={form.refs.description}
        label={intl.formatMessage({ id: 'webhooks.fields.descriptionLabel', defaultMessage: 'Description (optional)' })}
        {...(hints ? { hint: intl.formatMessage({ id: 'webhooks.fields.descriptionHint', defaultMessage: 'To tell endpoints apart, e.g. “Order system”.' }) } : {})}
        value={form.raw.description}
        maxLength={maxDescriptionLength}
        autoComplete="off"
        error={form.errors.description}
        onChange={(event) => {
          form.set.description(event.target.value);
          change('description');
        }}
      />
      <EventPicker
        plan={plan}
        chosen={form.raw.events}
        error={form.errors.events}
        firstRef={form.refs.events}
        onChange={(next) => {
          form.set.events(next);
          change('events');
        }}
      />
    </>
  );
}
