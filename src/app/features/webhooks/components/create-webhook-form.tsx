import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { PULL_RETENTION_DAYS } from '../../../../contract/webhook-events';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { useIntl } from '../../../lib/intl';
import type { CreateWebhookRequest } from '../api/types';
import { useWebhookFields, WebhookFields } from './webhook-fields';

interface CreateWebhookFormProps {
  plan: 'free' | 'paid';
  pending: boolean;
  error: unknown;
  onCreate: (input: CreateWebhookRequest, callbacks: { onError: (error: unknown) => void }) => void;
}

export function CreateWebhookForm({ plan, pending, error, onCreate }: CreateWebhookFormProps) {
  const intl = useIntl();
  const modeName = useId();
  const [mode, setMode] = useState<'push' | 'pull'>('push');
  const form = useWebhookFields({ mode, plan, initial: { url: '', description: '', events: [] } });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form.submit()) return;
    const { url, description, events } = form.values;
    onCreate({ url: mode === 'push' ? url : null, events, description }, { onError: form.serverRefused });
  }

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5" aria-label={intl.formatMessage({ id: 'webhooks.createForm.label', defaultMessage: 'Add an endpoint' })}>
      <FormError error={error} docsLink />
      <fieldset>
        <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {intl.formatMessage({ id: 'webhooks.createForm.deliveryLegend', defaultMessage: 'Delivery' })}
        </legend>
        <div className="mt-2 space-y-2">
          <ModeOption
            name={modeName}
            value="push"
            checked={mode === 'push'}
            onChange={() => setMode('push')}
            label={intl.formatMessage({ id: 'webhooks.createForm.pushLabel', defaultMessage: 'Push to a URL' })}
          >
            {intl.formatMessage({
              id: 'webhooks.createForm.pushDescription',
              defaultMessage: 'We POST each event to your URL, signed with the endpoint’s secret, and retry for about two days if it fails.',
            })}
          </ModeOption>
          <ModeOption
            name={modeName}
            value="pull"
            checked={mode === 'pull'}
            onChange={() => setMode('pull')}
            label={intl.formatMessage({ id: 'webhooks.createForm.pullLabel', defaultMessage: 'Pull from the API' })}
          >
            {intl.formatMessage(
              {
                id: 'webhooks.createForm.pullDescription',
                defaultMessage:
                  'Events wait for {days, plural, one {# day} other {# days}}; your system reads them with an API key whenever it likes. Nothing to expose to the internet.',
              },
              { days: PULL_RETENTION_DAYS },
            )}
          </ModeOption>
        </div>
      </fieldset>
      <WebhookFields form={form} mode={mode} plan={plan} hints />
      <Button type="submit" disabled={pending}>
        {pending
          ? intl.formatMessage({ id: 'webhooks.createForm.creating', defaultMessage: 'Creating…' })
          : intl.formatMessage({ id: 'webhooks.createForm.submit', defaultMessage: 'Create endpoint' })}
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
