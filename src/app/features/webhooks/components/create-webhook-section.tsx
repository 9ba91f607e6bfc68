import { Card } from '../../../components/card';
import { useIntl } from '../../../lib/intl';
import type { WebhookPlan } from '../api/get-webhook-limits';
import type { CreateWebhookRequest } from '../api/types';
import { planLimitSentence } from '../utils/webhook-display';
import { CreateWebhookForm } from './create-webhook-form';

interface CreateWebhookSectionProps {
  plan: WebhookPlan;
  endpointCount: number;
  pending: boolean;
  error: unknown;
  onCreate: (input: CreateWebhookRequest, callbacks: { onError: (error: unknown) => void }) => void;
}

/** The create form, or, when the plan's endpoints are used up, why there is none. */
export function CreateWebhookSection({ plan, endpointCount, pending, error, onCreate }: CreateWebhookSectionProps) {
  const intl = useIntl();
  const limitReached = endpointCount >= plan.endpointLimit;
  const usage = intl.formatMessage(
    { id: 'webhooks.createSection.usage', defaultMessage: 'This workspace has {count, plural, one {# endpoint} other {# endpoints}} of {limit, number}.' },
    { count: endpointCount, limit: plan.endpointLimit },
  );
  return (
    <Card aria-labelledby="create-webhook-heading">
      <h2 id="create-webhook-heading" className="text-lg font-semibold">
        {limitReached
          ? intl.formatMessage({ id: 'webhooks.createSection.limitReached', defaultMessage: 'Endpoint limit reached' })
          : intl.formatMessage({ id: 'webhooks.createSection.heading', defaultMessage: 'Add an endpoint' })}
      </h2>
      {limitReached ? (
        <div className="mt-2 space-y-2 text-sm text-zinc-700 dark:text-zinc-300">
          <p>
            {usage} {planLimitSentence(plan.plan, plan.endpointLimit, plan.billing, intl)}
          </p>
          <p>
            {plan.plan === 'free'
              ? intl.formatMessage({
                  id: 'webhooks.createSection.freeFull',
                  defaultMessage:
                    'To add another, delete an endpoint or move the workspace to the paid plan. One endpoint can subscribe to several events.',
                })
              : intl.formatMessage({
                  id: 'webhooks.createSection.paidFull',
                  defaultMessage: 'To add another, delete one you no longer need. One endpoint can subscribe to several events.',
                })}
          </p>
        </div>
      ) : (
        <>
          <p className="mt-1 mb-4 text-xs text-zinc-600 dark:text-zinc-400">
            {usage} {planLimitSentence(plan.plan, plan.endpointLimit, plan.billing, intl)}
          </p>
          <CreateWebhookForm plan={plan.plan} pending={pending} error={error} onCreate={onCreate} />
        </>
      )}
    </Card>
  );
}
