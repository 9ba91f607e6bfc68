import { useId } from 'react';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { FormError } from '../../../components/form-error';
import { useSession } from '../../auth';
import { useSetTwoStepRequirement } from '../api/security-api';

/**
 * For the workspace's owner and admins: require two-step verification of everyone in it. Offered
 * only once the person has it on themselves (the server refuses otherwise too).
 */
export function TwoStepRequirementCard() {
  const session = useSession();
  const setRequirement = useSetTwoStepRequirement();
  const headingId = useId();
  const required = session.workspace.requireTwoStep;
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        Two-step verification for everyone
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {required
          ? `Everyone in ${session.workspace.name} must use two-step verification. A member without it is asked to set it up before anything else.`
          : `Ask everyone in ${session.workspace.name} to use two-step verification: a member without it is asked to set it up at their next step. API keys keep working.`}
      </p>
      <FormError error={setRequirement.error} className="mt-3" />
      <div className="mt-4">
        {required ? (
          <Button variant="secondary" disabled={setRequirement.isPending} onClick={() => setRequirement.mutate(false)}>
            {setRequirement.isPending ? 'Saving…' : 'Stop requiring it'}
          </Button>
        ) : session.user.twoStep ? (
          <Button disabled={setRequirement.isPending} onClick={() => setRequirement.mutate(true)}>
            {setRequirement.isPending ? 'Saving…' : 'Require it of everyone'}
          </Button>
        ) : (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">Turn it on for yourself first (above), so that requiring it cannot lock you out.</p>
        )}
      </div>
    </Card>
  );
}
