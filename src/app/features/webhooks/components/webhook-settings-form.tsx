import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { useIntl } from '../../../lib/intl';
import type { UpdateWebhookRequest, WebhookEndpoint } from '../api/types';
import { useUpdateWebhook } from '../api/update-webhook';
import { isAllowedEvent } from '../utils/webhook-display';
import { Section } from '../../../components/section';
import { useWebhookFields, WebhookFields } from './webhook-fields';

const sameEvents = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((type) => b.includes(type));

/** The URL (push endpoints), description and events; sends only what changed. */
export function WebhookSettingsForm({ webhook, plan }: { webhook: WebhookEndpoint; plan: 'free' | 'paid' }) {
  const intl = useIntl();
  const update = useUpdateWebhook(webhook.id);
  const form = useWebhookFields({ mode: webhook.mode, plan, initial: { url: webhook.url ?? '', description: webhook.description, events: webhook.events } });
  const [saved, setSaved] = useState(false);

  // Events the plan no longer delivers (a paid plan that ended) are dropped on the next save.
  const droppedPaidEvents = webhook.events.filter((type) => !isAllowedEvent(type, plan));
  const { url, description, events } = form.values;
  const changes: UpdateWebhookRequest = {};
  if (webhook.mode === 'push' && url !== webhook.url) changes.url = url;
  if (description !== webhook.description) changes.description = description;
  if (!sameEvents(events, webhook.events)) changes.events = events;
  const changed = Object.keys(changes).length > 0;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    if (!form.submit() || !changed) return;
    update.mutate(changes, {
      onSuccess: () => {
        setSaved(true);
        form.sent();
      },
      onError: form.serverRefused,
    });
  }

  return (
    <Section title={intl.formatMessage({ id: 'webhooks.settings.title', defaultMessage: 'Settings' })}>
      <form
        noValidate
        onSubmit={onSubmit}
        className="space-y-5"
        aria-label={intl.formatMessage({ id: 'webhooks.settings.formLabel', defaultMessage: 'Endpoint settings' })}
      >
        <FormError error={update.error} docsLink />
        <WebhookFields form={form} mode={webhook.mode} plan={plan} onEdit={() => setSaved(false)} />
        {droppedPaidEvents.length > 0 ? (
          <p className="text-sm text-amber-800 dark:text-amber-300">
            {intl.formatMessage(
              {
                id: 'webhooks.settings.droppedPaidEvents',
                defaultMessage:
                  '{count, plural, one {{events} is delivered only on the paid plan and will be removed when you save.} other {{events} are delivered only on the paid plan and will be removed when you save.}}',
              },
              // Event names are the API's, listed as they are ("a, b"), in the page's language's list punctuation.
              { count: droppedPaidEvents.length, events: intl.formatList(droppedPaidEvents, { type: 'unit', style: 'short' }) },
            )}
          </p>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="secondary" disabled={update.isPending || !changed}>
            {update.isPending
              ? intl.formatMessage({ id: 'webhooks.settings.saving', defaultMessage: 'Saving…' })
              : intl.formatMessage({ id: 'webhooks.settings.save', defaultMessage: 'Save changes' })}
          </Button>
          <span role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
            {saved ? intl.formatMessage({ id: 'webhooks.settings.saved', defaultMessage: 'Changes saved.' }) : ''}
          </span>
        </div>
      </form>
    </Section>
  );
}
