import { createFileRoute, Outlet } from '@tanstack/react-router';
import { SignedOutShell } from '../components/layout/signed-out-shell';

export const Route = createFileRoute('/_signed-out')({
  component: SignedOutLayout,
});

function SignedOutLayout() {
  return (
    <SignedOutShell>
      <Outlet />
    </SignedOutShell>
  );
}
