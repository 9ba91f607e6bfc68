import { useEffect, useRef, useState, type FormEvent } from 'react';
import { webhookEventTypes } from '../../../../contract/webhook-events';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { TextField } from '../../../components/text-field';
import { firstInvalid, type FieldErrors } from '../../../lib/form-errors';
import type { UpdateWebhookRequest, WebhookEndpoint } from '../api/types';
import { useUpdateWebhook } from '../api/update-webhook';
import { maxDescriptionLength, validateWebhookForm, webhookFields, webhookServerErrors, type WebhookField } from '../utils/form-validation';
import { isAllowedEvent } from '../utils/webhook-display';
import { EventPicker } from './event-picker';
import { Section } from './section';

const sameEvents = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((type) => b.includes(type));

/** The URL (push endpoints), description and events; sends only what changed. */
export function WebhookSettingsForm({ webhook, plan }: { webhook: WebhookEndpoint; plan: 'free' | 'paid' }) {
  const update = useUpdateWebhook(webhook.id);
  const [url, setUrl] = useState(webhook.url ?? '');
  const [description, setDescription] = useState(webhook.description);
  const [events, setEvents] = useState<ReadonlySet<string>>(() => new Set(webhook.events));
  const [fromServer, setFromServer] = useState<FieldErrors<WebhookField>>({});
  const [attempted, setAttempted] = useState(false);
  const [saved, setSaved] = useState(false);
  const [focusRequest, setFocusRequest] = useState<{ field: WebhookField } | null>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  const descriptionRef = useRef<HTMLInputElement>(null);
  const firstEventRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focusRequest?.field === 'url') urlRef.current?.focus();
    if (focusRequest?.field === 'events') firstEventRef.current?.focus();
    if (focusRequest?.field === 'description') descriptionRef.current?.focus();
  }, [focusRequest]);

  // Events the plan no longer delivers (a paid plan that ended) are dropped on the next save.
  const chosenEvents = webhookEventTypes.filter((type) => events.has(type) && isAllowedEvent(type, plan));
  const droppedPaidEvents = webhook.events.filter((type) => !isAllowedEvent(type, plan));
  const chosenSet = new Set<string>(chosenEvents);
  const clientErrors = validateWebhookForm({ mode: webhook.mode, url, description, events: chosenSet });
  const errors: FieldErrors<WebhookField> = {};
  for (const field of webhookFields) errors[field] = (attempted ? clientErrors[field] : undefined) ?? fromServer[field];

  const changes: UpdateWebhookRequest = {};
  if (webhook.mode === 'push' && url.trim() !== webhook.url) changes.url = url.trim();
  if (description.trim() !== webhook.description) changes.description = description.trim();
  if (!sameEvents(chosenEvents, webhook.events)) changes.events = chosenEvents;
  const changed = Object.keys(changes).length > 0;

  function edited(field: WebhookField) {
    setSaved(false);
    setFromServer((current) => ({ ...current, [field]: undefined }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAttempted(true);
    setFromServer({});
    setSaved(false);
    const invalid = firstInvalid(clientErrors, webhookFields);
    if (invalid) {
      setFocusRequest({ field: invalid });
      return;
    }
    if (!changed) return;
    update.mutate(changes, {
      onSuccess: () => {
        setSaved(true);
        setAttempted(false);
      },
      onError: (failure) => {
        const byField = webhookServerErrors(failure);
        setFromServer(byField);
        const invalidOnServer = firstInvalid(byField, webhookFields);
        if (invalidOnServer) setFocusRequest({ field: invalidOnServer });
      },
    });
  }

  return (
    <Section title="Settings">
      <form noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Endpoint settings">
        <FormError error={update.error} docsLink />
        {webhook.mode === 'push' ? (
          <TextField
            ref={urlRef}
            label="Endpoint URL"
            type="url"
            inputMode="url"
            value={url}
            maxLength={2048}
            autoComplete="off"
            spellCheck={false}
            error={errors.url}
            onChange={(event) => {
              setUrl(event.target.value);
              edited('url');
            }}
          />
        ) : null}
        <TextField
          ref={descriptionRef}
          label="Description (optional)"
          value={description}
          maxLength={maxDescriptionLength}
          autoComplete="off"
          error={errors.description}
          onChange={(event) => {
            setDescription(event.target.value);
            edited('description');
          }}
        />
        <EventPicker
          plan={plan}
          chosen={events}
          error={errors.events}
          firstRef={firstEventRef}
          onChange={(next) => {
            setEvents(next);
            edited('events');
          }}
        />
        {droppedPaidEvents.length > 0 ? (
          <p className="text-sm text-amber-800 dark:text-amber-300">
            {droppedPaidEvents.join(', ')} {droppedPaidEvents.length === 1 ? 'is' : 'are'} delivered only on the paid plan and will be removed when you save.
          </p>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="secondary" disabled={update.isPending || !changed}>
            {update.isPending ? 'Saving…' : 'Save changes'}
          </Button>
          <span role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
            {saved ? 'Changes saved.' : ''}
          </span>
        </div>
      </form>
    </Section>
  );
}
