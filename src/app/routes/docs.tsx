import { createFileRoute, Outlet } from '@tanstack/react-router';
import { PublicShell } from '../components/layout/public-shell';

export const Route = createFileRoute('/docs')({
  component: DocsLayout,
});

function DocsLayout() {
  return (
    <PublicShell>
      <Outlet />
    </PublicShell>
  );
}
