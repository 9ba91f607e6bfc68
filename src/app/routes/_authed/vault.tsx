import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useSession } from '../../features/auth/api/get-session';
import { validateCollectionBrowserSearch, defaultBrowserSearch } from '../../features/collections/utils/browser-search';
import { vaultQueryOptions } from '../../features/vault/api/vault-api';
import { VaultPage } from '../../features/vault/components/vault-page';

/**
 * The vault: the same search params as a collection's browser (folder, sort, order, view). What is searched for
 * stays out of the address: it is a decrypted name, and addresses reach the server on a reload.
 */
export const Route = createFileRoute('/_authed/vault')({
  validateSearch: validateCollectionBrowserSearch,
  search: { middlewares: [stripSearchParams(defaultBrowserSearch)] },
  loader: ({ context }) => context.queryClient.ensureQueryData(vaultQueryOptions()),
  component: VaultRoute,
});

function VaultRoute() {
  const session = useSession();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <VaultPage
      userId={session.user.id}
      workspaceId={session.workspace.id}
      search={search}
      onSearchChange={(change, options) => void navigate({ search: (prev) => ({ ...prev, ...change }), replace: options?.replace })}
    />
  );
}
