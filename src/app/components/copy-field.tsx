import { useId } from 'react';
import { CopyButton } from './copy-button';
import { inputClass } from './text-field';

/** A labelled read-only value (a key, a link) that selects itself on focus, with a Copy button. */
export function CopyField({ label, value, describedBy, className = '' }: { label: string; value: string; describedBy?: string; className?: string }) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <div className="mt-1 flex flex-col gap-2 sm:flex-row sm:items-center">
        <input
          id={id}
          readOnly
          value={value}
          aria-describedby={describedBy}
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.target.select()}
          className={`${inputClass} min-w-0 font-mono`}
        />
        <CopyButton text={value} />
      </div>
    </div>
  );
}
