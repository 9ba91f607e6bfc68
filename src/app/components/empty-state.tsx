import type { ReactNode } from 'react';

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 px-6 py-12 text-center dark:border-zinc-700">
      <h2 className="text-base font-semibold">{title}</h2>
      {children ? <div className="mx-auto mt-2 max-w-md text-sm text-zinc-600 dark:text-zinc-400">{children}</div> : null}
    </div>
  );
}
