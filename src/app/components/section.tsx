import { useId, type ReactNode } from 'react';
import { Card } from './card';

/** A card named by its heading, so it is a region a screen reader can jump to; `actions` sit beside the heading. */
export function Section({
  title,
  description,
  actions,
  children,
  className = '',
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const headingId = useId();
  return (
    <Card aria-labelledby={headingId} className={className}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold">
            {title}
          </h2>
          {description ? <div className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{description}</div> : null}
        </div>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      <div className="mt-4">{children}</div>
    </Card>
  );
}
