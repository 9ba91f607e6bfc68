import { useId } from 'react';
import { Card } from '../../../components/card';
import { useIntl } from '../../../lib/intl';
import { useSession } from '../../auth';
import { useSetTwoStepRequirement } from '../api/security-api';
import { RequirementSwitch } from './requirement-switch';

/**
 * For the workspace's owner and admins: require two-step verification of everyone in it. Offered
 * only once the person has it on themselves (the server refuses otherwise too).
 */
export function TwoStepRequirementCard() {
  const intl = useIntl();
  const session = useSession();
  const setRequirement = useSetTwoStepRequirement();
  const headingId = useId();
  const required = session.workspace.requireTwoStep;
  const workspace = <bdi key="workspace">{session.workspace.name}</bdi>;
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {intl.formatMessage({ id: 'security.twoStepRequirement.heading', defaultMessage: 'Two-step verification for everyone' })}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {required
          ? intl.formatMessage(
              {
                id: 'security.twoStepRequirement.required',
                defaultMessage: 'Everyone in {workspace} must use two-step verification. A member without it is asked to set it up before anything else.',
              },
              { workspace },
            )
          : intl.formatMessage(
              {
                id: 'security.twoStepRequirement.notRequired',
                defaultMessage: 'Ask everyone in {workspace} to use two-step verification: a member without it is asked to set it up at their next step. API keys keep working.',
              },
              { workspace },
            )}
      </p>
      <RequirementSwitch
        required={required}
        met={session.user.twoStep}
        requireLabel={intl.formatMessage({ id: 'security.twoStepRequirement.require', defaultMessage: 'Require it of everyone' })}
        unmet={intl.formatMessage({
          id: 'security.twoStepRequirement.unmet',
          defaultMessage: 'Turn it on for yourself first (above), so that requiring it cannot lock you out.',
        })}
        setRequired={setRequirement}
      />
    </Card>
  );
}
