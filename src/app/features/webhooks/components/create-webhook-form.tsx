import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { TextField } from '../../../components/text-field';
import { firstInvalid, type FieldErrors } from '../../../lib/form-errors';
import type { CreateWebhookRequest } from '../api/types';
import { maxDescriptionLength, validateWebhookForm, webhookFields, webhookServerErrors, type WebhookField } from '../utils/form-validation';
import { subscribableEvents } from '../utils/webhook-display';
import { EventPicker } from './event-picker';

interface CreateWebhookFormProps {
  plan: 'free' | 'paid';
  pending: boolean;
  error: unknown;
  onCreate: (input: CreateWebhookRequest, callbacks: { onError: (error: unknown) => void }) => void;
}

export function CreateWebhookForm({ plan, pending, error, onCreate }: CreateWebhookFormProps) {
  const modeName = useId();
  const [mode, setMode] = useState<'push' | 'pull'>('push');
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<ReadonlySet<string>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const [fromServer, setFromServer] = useState<FieldErrors<WebhookField>>({});
  const [focusRequest, setFocusRequest] = useState<{ field: WebhookField } | null>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  const descriptionRef = useRef<HTMLInputElement>(null);
  const firstEventRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focusRequest?.field === 'url') urlRef.current?.focus();
    if (focusRequest?.field === 'events') firstEventRef.current?.focus();
    if (focusRequest?.field === 'description') descriptionRef.current?.focus();
  }, [focusRequest]);

  const clientErrors = validateWebhookForm({ mode, url, description, events });
  const errors: FieldErrors<WebhookField> = {};
  for (const field of webhookFields) errors[field] = (attempted ? clientErrors[field] : undefined) ?? fromServer[field];

  const clearServerError = (field: WebhookField) => setFromServer((current) => ({ ...current, [field]: undefined }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAttempted(true);
    setFromServer({});
    const invalid = firstInvalid(clientErrors, webhookFields);
    if (invalid) {
      setFocusRequest({ field: invalid });
      return;
    }
    onCreate(
      {
        url: mode === 'push' ? url.trim() : null,
        events: subscribableEvents.filter((type) => events.has(type)),
        description: description.trim(),
      },
      {
        onError: (failure) => {
          const byField = webhookServerErrors(failure);
          setFromServer(byField);
          const invalidOnServer = firstInvalid(byField, webhookFields);
          if (invalidOnServer) setFocusRequest({ field: invalidOnServer });
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5" aria-label="Add an endpoint">
      <FormError error={error} docsLink />
      <fieldset>
        <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">Delivery</legend>
        <div className="mt-2 space-y-2">
          <ModeOption name={modeName} value="push" checked={mode === 'push'} onChange={() => setMode('push')} label="Push to a URL">
            We POST each event to your URL, signed with the endpoint’s secret, and retry for about two days if it fails.
          </ModeOption>
          <ModeOption name={modeName} value="pull" checked={mode === 'pull'} onChange={() => setMode('pull')} label="Pull from the API">
            Events wait for 30 days; your system reads them with an API key whenever it likes. Nothing to expose to the internet.
          </ModeOption>
        </div>
      </fieldset>
      {mode === 'push' ? (
        <TextField
          ref={urlRef}
          label="Endpoint URL"
          type="url"
          inputMode="url"
          placeholder="https://hooks.example.com/parcel"
          hint="An https address on the public internet. Private and local addresses are refused."
          value={url}
          maxLength={2048}
          autoComplete="off"
          spellCheck={false}
          error={errors.url}
          onChange={(event) => {
            setUrl(event.target.value);
            clearServerError('url');
          }}
        />
      ) : null}
      <TextField
        ref={descriptionRef}
        label="Description (optional)"
        hint="To tell endpoints apart, e.g. “Order system”."
        value={description}
        maxLength={maxDescriptionLength}
        autoComplete="off"
        error={errors.description}
        onChange={(event) => {
          setDescription(event.target.value);
          clearServerError('description');
        }}
      />
      <EventPicker
        plan={plan}
        chosen={events}
        error={errors.events}
        firstRef={firstEventRef}
        onChange={(next) => {
          setEvents(next);
          clearServerError('events');
        }}
      />
      <Button type="submit" disabled={pending}>
        {pending ? 'Creating…' : 'Create endpoint'}
      </Button>
    </form>
  );
}

function ModeOption({ name, value, checked, onChange, label, children }: { name: string; value: string; checked: boolean; onChange: () => void; label: string; children: ReactNode }) {
  const id = useId();
  return (
    <div className="flex gap-3 rounded-md border border-zinc-200 p-3 has-checked:border-indigo-400 has-checked:bg-indigo-50/60 dark:border-zinc-800 dark:has-checked:border-indigo-600 dark:has-checked:bg-indigo-950/40">
      <input
        id={id}
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={onChange}
        aria-describedby={`${id}-description`}
        className="mt-0.5 size-4 shrink-0 accent-indigo-600"
      />
      <div className="min-w-0 text-sm">
        <label htmlFor={id} className="font-medium">
          {label}
        </label>
        <p id={`${id}-description`} className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
          {children}
        </p>
      </div>
    </div>
  );
}
