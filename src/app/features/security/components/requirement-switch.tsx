import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { useIntl } from '../../../lib/intl';

/**
 * Requiring something of everyone in the workspace (two-step verification, single sign-on), or
 * stopping: offered only to someone who meets it themselves (the server refuses otherwise too), so
 * requiring it cannot lock them out; `unmet` says what to do first.
 */
export function RequirementSwitch({
  required,
  met,
  requireLabel,
  unmet,
  setRequired,
}: {
  required: boolean;
  met: boolean;
  requireLabel: string;
  unmet: string;
  setRequired: { mutate: (required: boolean) => void; isPending: boolean; error: unknown };
}) {
  const intl = useIntl();
  const saving = intl.formatMessage({ id: 'security.requirement.saving', defaultMessage: 'Saving…' });
  return (
    <>
      <FormError error={setRequired.error} className="mt-3" />
      <div className="mt-4">
        {required ? (
          <Button variant="secondary" disabled={setRequired.isPending} onClick={() => setRequired.mutate(false)}>
            {setRequired.isPending ? saving : intl.formatMessage({ id: 'security.requirement.stop', defaultMessage: 'Stop requiring it' })}
          </Button>
        ) : met ? (
          <Button disabled={setRequired.isPending} onClick={() => setRequired.mutate(true)}>
            {setRequired.isPending ? saving : requireLabel}
          </Button>
        ) : (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{unmet}</p>
        )}
      </div>
    </>
  );
}
