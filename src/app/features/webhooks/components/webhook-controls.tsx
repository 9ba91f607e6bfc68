import { Button } from '../../../components/button';
import { ConfirmedAction } from '../../../components/confirmed-action';
import { FormError } from '../../../components/form-error';
import { useDeleteWebhook } from '../api/delete-webhook';
import { useRotateWebhookSecret } from '../api/rotate-webhook-secret';
import type { WebhookEndpoint } from '../api/types';
import { useUpdateWebhook } from '../api/update-webhook';
import { endpointName } from '../utils/webhook-display';
import { Section } from '../../../components/section';

interface WebhookControlsProps {
  webhook: WebhookEndpoint;
  onRotated: (secret: string) => void;
  onDeleted: () => void;
  announce: (message: string) => void;
}

/** Pause or resume, rotate the secret (push endpoints), delete. */
export function WebhookControls({ webhook, onRotated, onDeleted, announce }: WebhookControlsProps) {
  const update = useUpdateWebhook(webhook.id);
  const rotate = useRotateWebhookSecret(webhook.id);
  const remove = useDeleteWebhook(webhook.id);

  function setEnabled(enabled: boolean) {
    update.mutate({ enabled }, { onSuccess: () => announce(enabled ? 'Endpoint resumed.' : 'Endpoint paused.') });
  }

  return (
    <Section title="Manage">
      <div className="space-y-6 text-sm">
        <div className="space-y-2">
          <h3 className="font-medium">{webhook.enabled ? 'Pause' : 'Resume'}</h3>
          <p className="text-zinc-600 dark:text-zinc-400">
            {webhook.enabled
              ? 'A paused endpoint gets no new events until you resume it.'
              : 'Resuming matches the endpoint to new events again. Events that happened while it was paused are not sent.'}
          </p>
          <Button variant="secondary" disabled={update.isPending} onClick={() => setEnabled(!webhook.enabled)}>
            {webhook.enabled ? 'Pause endpoint' : 'Resume endpoint'}
          </Button>
          <FormError error={update.error} />
        </div>
        {webhook.mode === 'push' ? (
          <div className="space-y-2">
            <h3 className="font-medium">Signing secret</h3>
            <p className="text-zinc-600 dark:text-zinc-400">Replace the secret if it leaked. The new one is shown once.</p>
            <ConfirmedAction
              label="Rotate secret"
              variant="secondary"
              title="Rotate the signing secret?"
              pendingLabel="Rotating…"
              action={rotate}
              onDone={({ secret }) => onRotated(secret)}
            >
              The current secret stops working at once: every delivery from now on, retries included, is signed with the new one. Have your
              receiver ready to take the new secret.
            </ConfirmedAction>
          </div>
        ) : null}
        <div className="space-y-2">
          <h3 className="font-medium">Delete</h3>
          <p className="text-zinc-600 dark:text-zinc-400">
            {webhook.mode === 'push' ? 'Stops deliveries and deletes the delivery history.' : 'Deletes the endpoint and the events it holds.'}
          </p>
          <ConfirmedAction label="Delete endpoint" title="Delete this endpoint?" pendingLabel="Deleting…" action={remove} onDone={onDeleted}>
            <span className="break-all">{endpointName(webhook)}</span>{' '}
            {webhook.mode === 'push' ? 'gets no more events, and its delivery history is deleted.' : 'is deleted with the events it holds.'} This
            cannot be undone.
          </ConfirmedAction>
        </div>
      </div>
    </Section>
  );
}
