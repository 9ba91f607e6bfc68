import { useEffect, useRef, useState } from 'react';
import { useIntl } from '../lib/intl';
import { Button, type ButtonVariant } from './button';

type CopyState = 'idle' | 'copied' | 'failed';

/** Copies `text` to the clipboard and says so ("Copied") for a moment. */
export function CopyButton({
  text,
  variant = 'secondary',
  label,
  accessibleName,
  className = '',
}: {
  text: string;
  variant?: ButtonVariant;
  label?: string;
  /** The name when `label` alone is ambiguous (one per row of a list). */
  accessibleName?: string;
  className?: string;
}) {
  const intl = useIntl();
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    timer.current = setTimeout(() => setState('idle'), 2500);
  }

  return (
    <>
      <Button variant={variant} onClick={copy} className={`shrink-0 ${className}`} aria-label={state === 'copied' ? undefined : accessibleName}>
        {state === 'copied'
          ? intl.formatMessage({ id: 'common.copyButton.copied', defaultMessage: 'Copied' })
          : (label ?? intl.formatMessage({ id: 'common.copyButton.copy', defaultMessage: 'Copy' }))}
      </Button>
      <span role="status" className="sr-only">
        {state === 'copied' ? intl.formatMessage({ id: 'common.copyButton.copiedStatus', defaultMessage: 'Copied to the clipboard' }) : ''}
      </span>
      {state === 'failed' ? (
        <span role="alert" className="text-sm text-red-700 dark:text-red-400">
          {intl.formatMessage({ id: 'common.copyButton.failed', defaultMessage: 'Could not copy. Select the text and copy it yourself.' })}
        </span>
      ) : null}
    </>
  );
}
