import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useIntl } from '../lib/intl';
import { Button } from './button';
import { useFocusReturn, wrapTabFocus } from './modal-dialog';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  pending?: boolean;
  /** Keeps the confirm button off until the dialog's own condition holds (a name typed again). */
  confirmDisabled?: boolean;
  /** Shown inside the dialog, e.g. the server's answer when confirming failed. */
  error?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal alert dialog for destructive actions. Focus starts on Cancel (the safe choice), stays
 * inside while open (Tab wraps), Escape cancels, and focus returns to whatever opened it.
 * Render it only while open.
 */
export function ConfirmDialog({ title, children, confirmLabel, pendingLabel, pending = false, confirmDisabled = false, error, onConfirm, onCancel }: ConfirmDialogProps) {
  const intl = useIntl();
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  useFocusReturn(cancelRef);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      if (!pending) onCancel();
      return;
    }
    wrapTabFocus(event, dialogRef.current);
  }

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-end justify-center p-4 sm:items-center">
      <div className="absolute inset-0 bg-zinc-950/50" aria-hidden="true" onClick={pending ? undefined : onCancel} />
      <div
        ref={dialogRef}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        onKeyDown={onKeyDown}
        className="relative w-full max-w-md rounded-lg bg-white p-6 shadow-xl dark:bg-zinc-900 dark:ring-1 dark:ring-zinc-800"
      >
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        <div id={descriptionId} className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
          {children}
        </div>
        {error ? <div className="mt-4">{error}</div> : null}
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={pending}>
            {intl.formatMessage({ id: 'common.confirmDialog.cancel', defaultMessage: 'Cancel' })}
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={pending || confirmDisabled}>
            {pending && pendingLabel ? pendingLabel : confirmLabel}
          </Button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
