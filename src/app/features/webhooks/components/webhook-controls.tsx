import { Button } from '../../../components/button';
import { ConfirmedAction } from '../../../components/confirmed-action';
import { FormError } from '../../../components/form-error';
import { useIntl } from '../../../lib/intl';
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
  const intl = useIntl();
  const update = useUpdateWebhook(webhook.id);
  const rotate = useRotateWebhookSecret(webhook.id);
  const remove = useDeleteWebhook(webhook.id);

  function setEnabled(enabled: boolean) {
    update.mutate(
      { enabled },
      {
        onSuccess: () =>
          announce(
            enabled
              ? intl.formatMessage({ id: 'webhooks.controls.resumed', defaultMessage: 'Endpoint resumed.' })
              : intl.formatMessage({ id: 'webhooks.controls.paused', defaultMessage: 'Endpoint paused.' }),
          ),
      },
    );
  }

  // The endpoint's URL may be long and unbroken: it wraps anywhere, isolated from the sentence around it.
  const name = (
    <bdi key="name" className="break-all">
      {endpointName(webhook, intl)}
    </bdi>
  );

  return (
    <Section title={intl.formatMessage({ id: 'webhooks.controls.title', defaultMessage: 'Manage' })}>
      <div className="space-y-6 text-sm">
        <div className="space-y-2">
          <h3 className="font-medium">
            {webhook.enabled
              ? intl.formatMessage({ id: 'webhooks.controls.pauseHeading', defaultMessage: 'Pause' })
              : intl.formatMessage({ id: 'webhooks.controls.resumeHeading', defaultMessage: 'Resume' })}
          </h3>
          <p className="text-zinc-600 dark:text-zinc-400">
            {webhook.enabled
              ? intl.formatMessage({ id: 'webhooks.controls.pauseHelp', defaultMessage: 'A paused endpoint gets no new events until you resume it.' })
              : intl.formatMessage({
                  id: 'webhooks.controls.resumeHelp',
                  defaultMessage: 'Resuming matches the endpoint to new events again. Events that happened while it was paused are not sent.',
                })}
          </p>
          <Button variant="secondary" disabled={update.isPending} onClick={() => setEnabled(!webhook.enabled)}>
            {webhook.enabled
              ? intl.formatMessage({ id: 'webhooks.controls.pauseButton', defaultMessage: 'Pause endpoint' })
              : intl.formatMessage({ id: 'webhooks.controls.resumeButton', defaultMessage: 'Resume endpoint' })}
          </Button>
          <FormError error={update.error} />
        </div>
        {webhook.mode === 'push' ? (
          <div className="space-y-2">
            <h3 className="font-medium">{intl.formatMessage({ id: 'webhooks.controls.secretHeading', defaultMessage: 'Signing secret' })}</h3>
            <p className="text-zinc-600 dark:text-zinc-400">
              {intl.formatMessage({ id: 'webhooks.controls.secretHelp', defaultMessage: 'Replace the secret if it leaked. The new one is shown once.' })}
            </p>
            <ConfirmedAction
              label={intl.formatMessage({ id: 'webhooks.controls.rotate', defaultMessage: 'Rotate secret' })}
              variant="secondary"
              title={intl.formatMessage({ id: 'webhooks.controls.rotateTitle', defaultMessage: 'Rotate the signing secret?' })}
              pendingLabel={intl.formatMessage({ id: 'webhooks.controls.rotating', defaultMessage: 'Rotating…' })}
              action={rotate}
              onDone={({ secret }) => onRotated(secret)}
            >
              {intl.formatMessage({
                id: 'webhooks.controls.rotateConsequence',
                defaultMessage:
                  'The current secret stops working at once: every delivery from now on, retries included, is signed with the new one. Have your receiver ready to take the new secret.',
              })}
            </ConfirmedAction>
          </div>
        ) : null}
        <div className="space-y-2">
          <h3 className="font-medium">{intl.formatMessage({ id: 'webhooks.controls.deleteHeading', defaultMessage: 'Delete' })}</h3>
          <p className="text-zinc-600 dark:text-zinc-400">
            {webhook.mode === 'push'
              ? intl.formatMessage({ id: 'webhooks.controls.deletePushHelp', defaultMessage: 'Stops deliveries and deletes the delivery history.' })
              : intl.formatMessage({ id: 'webhooks.controls.deletePullHelp', defaultMessage: 'Deletes the endpoint and the events it holds.' })}
          </p>
          <ConfirmedAction
            label={intl.formatMessage({ id: 'webhooks.controls.delete', defaultMessage: 'Delete endpoint' })}
            title={intl.formatMessage({ id: 'webhooks.controls.deleteTitle', defaultMessage: 'Delete this endpoint?' })}
            pendingLabel={intl.formatMessage({ id: 'webhooks.controls.deleting', defaultMessage: 'Deleting…' })}
            action={remove}
            onDone={onDeleted}
          >
            {webhook.mode === 'push'
              ? intl.formatMessage(
                  {
                    id: 'webhooks.controls.deletePushConsequence',
                    defaultMessage: '{name} gets no more events, and its delivery history is deleted. This cannot be undone.',
                  },
                  { name },
                )
              : intl.formatMessage(
                  { id: 'webhooks.controls.deletePullConsequence', defaultMessage: '{name} is deleted with the events it holds. This cannot be undone.' },
                  { name },
                )}
          </ConfirmedAction>
        </div>
      </div>
    </Section>
  );
}
