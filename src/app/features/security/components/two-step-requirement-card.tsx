import { useId } from 'react';
import { Card } from '../../../components/card';
import { useSession } from '../../auth';
import { useSetTwoStepRequirement } from '../api/security-api';
import { RequirementSwitch } from './requirement-switch';

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
      <RequirementSwitch
        required={required}
        met={session.user.twoStep}
        requireLabel="Require it of everyone"
        unmet="Turn it on for yourself first (above), so that requiring it cannot lock you out."
        setRequired={setRequirement}
      />
    </Card>
  );
}
