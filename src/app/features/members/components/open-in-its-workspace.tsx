import { useParams, useRouter } from '@tanstack/react-router';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { useIntl } from '../../../lib/intl';
import { useSwitchWorkspace, useWorkspaceHolding } from '../api/members';

/**
 * On a page whose transfer, collection, request or webhook is not in the current workspace: if it is
 * in another of the person's workspaces, says which and opens it there (the session moves, the same
 * address loads again). Says nothing when none of theirs holds it.
 */
export function OpenInItsWorkspace({ param }: { param: 'transferId' | 'collectionId' | 'requestId' | 'webhookId' }) {
  const intl = useIntl();
  const id = (useParams({ strict: false }) as Record<string, string | undefined>)[param];
  const router = useRouter();
  const switchTo = useSwitchWorkspace();
  const holding = useWorkspaceHolding(id);
  if (!holding.data) return null;
  const { name } = holding.data;
  return (
    <div className="mt-6 space-y-3">
      <p className="text-zinc-700 dark:text-zinc-300">
        {intl.formatMessage(
          { id: 'members.elsewhere.text', defaultMessage: 'It is in {workspace}, another of your workspaces.' },
          {
            workspace: (
              <strong key="workspace">
                <bdi>{name}</bdi>
              </strong>
            ),
          },
        )}
      </p>
      <FormError error={switchTo.error} />
      <Button disabled={switchTo.isPending} onClick={() => switchTo.mutate(holding.data.id, { onSuccess: () => void router.invalidate() })}>
        {switchTo.isPending
          ? intl.formatMessage({ id: 'members.elsewhere.opening', defaultMessage: 'Opening…' })
          : intl.formatMessage({ id: 'members.elsewhere.open', defaultMessage: 'Open it in {workspace}' }, { workspace: <bdi key="workspace">{name}</bdi> })}
      </Button>
    </div>
  );
}
