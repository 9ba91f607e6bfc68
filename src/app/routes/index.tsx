import { createFileRoute, redirect } from '@tanstack/react-router';
import { sessionQueryOptions } from '../features/auth/api/get-session';
import { setupStateQueryOptions } from '../features/auth/api/get-setup-state';

/** The front door: the dashboard when signed in, otherwise sign-in (or sign-up on a fresh instance). */
export const Route = createFileRoute('/')({
  beforeLoad: async ({ context }) => {
    const session = await context.queryClient.ensureQueryData(sessionQueryOptions());
    if (session) throw redirect({ to: '/transfers', replace: true });
    const setup = await context.queryClient.ensureQueryData(setupStateQueryOptions());
    throw redirect({ to: setup.needsFirstWorkspace ? '/signup' : '/signin', replace: true });
  },
});
