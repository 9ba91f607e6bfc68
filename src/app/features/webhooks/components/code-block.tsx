import { useId } from 'react';
import { CopyButton } from '../../../components/copy-button';

/**
 * Code or a body shown as text (never parsed as HTML), with a Copy button. `wrap` breaks long
 * lines (bodies); code keeps its lines and scrolls.
 */
export function CodeBlock({ label, code, wrap = false, className = '' }: { label: string; code: string; wrap?: boolean; className?: string }) {
  const id = useId();
  return (
    <figure className={`min-w-0 ${className}`} aria-labelledby={id}>
      <div className="mb-1 flex items-center justify-between gap-2">
        <figcaption id={id} className="text-sm font-medium">
          {label}
        </figcaption>
        <CopyButton text={code} />
      </div>
      {/* Focusable, so a keyboard can scroll a long body. */}
      <pre tabIndex={0} aria-labelledby={id} className={`overflow-auto ${wrap ? 'max-h-96 break-all whitespace-pre-wrap' : ''} rounded-md bg-zinc-950 p-3 text-xs leading-relaxed text-zinc-100 dark:bg-black/60 dark:ring-1 dark:ring-zinc-800`}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}
