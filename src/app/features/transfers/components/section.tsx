import { useId, type ReactNode } from 'react';
import { Card } from '../../../components/card';

/** A card named by its heading, so it is a landmark region a screen reader can jump to. */
export function Section({ title, description, children, className = '' }: { title: string; description?: ReactNode; children: ReactNode; className?: string }) {
  const headingId = useId();
  return (
    <Card aria-labelledby={headingId} className={className}>
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      {description ? <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{description}</p> : null}
      <div className="mt-4">{children}</div>
    </Card>
  );
}
