import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useIntl } from '../lib/intl';
import { Button } from './button';

const focusableSelector =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab inside `container`: from the last control to the first and back. */
export function wrapTabFocus(event: KeyboardEvent<HTMLElement>, container: HTMLElement | null) {
  if (event.key !== 'Tab' || !container) return;
  const focusable = Array.from(container.querySelectorAll<HTMLElement>(focusableSelector));
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  // Focus on the container itself (where a dialog starts) counts as before the first control.
  if (event.shiftKey && (active === first || active === container)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

/** Moves focus to `target` on mount, and back to whatever had it before on unmount (if it is still on the page). */
export function useFocusReturn(target: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    target.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, [target]);
}

interface ModalDialogProps {
  title: string;
  /** A line under the title, read with it. */
  description?: ReactNode;
  onClose: () => void;
  /** While true (a request in flight), Escape and the backdrop do not close it. */
  busy?: boolean;
  /** Where focus starts; the dialog itself (so its title is read first) when not given. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** `wide` for dialogs with several sections. */
  size?: 'normal' | 'wide';
  children: ReactNode;
}

/**
 * A modal dialog for forms and settings (ConfirmDialog is the one for destructive choices). Rendered into
 * the body, focus stays inside while open (Tab wraps), Escape and the backdrop close it, and focus returns
 * to whatever opened it. Render it only while open. Long content scrolls inside; on a phone it is a sheet.
 */
export function ModalDialog({ title, description, onClose, busy = false, initialFocus, size = 'normal', children }: ModalDialogProps) {
  const intl = useIntl();
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  useFocusReturn(initialFocus ?? dialogRef);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    // Keys in a dialog opened from this one (a confirmation, portalled elsewhere) reach here through React: they are that dialog's.
    if (!dialogRef.current?.contains(event.target as Node)) return;
    if (event.key === 'Escape') {
      event.stopPropagation();
      if (!busy) onClose();
      return;
    }
    wrapTabFocus(event, dialogRef.current);
  }

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-end justify-center sm:items-center sm:p-4">
      <div className="absolute inset-0 bg-zinc-950/50" aria-hidden="true" onClick={busy ? undefined : onClose} />
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        className={`relative flex max-h-[92dvh] w-full flex-col rounded-t-xl bg-white shadow-xl outline-none sm:max-h-[88dvh] sm:rounded-lg dark:bg-zinc-900 dark:ring-1 dark:ring-zinc-800 ${size === 'wide' ? 'sm:max-w-2xl' : 'sm:max-w-lg'}`}
      >
        <div className="flex items-start justify-between gap-4 border-b border-zinc-200 px-5 py-4 sm:px-6 dark:border-zinc-800">
          <div className="min-w-0">
            <h2 id={titleId} className="text-lg font-semibold break-words">
              {title}
            </h2>
            {description ? (
              <div id={descriptionId} className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                {description}
              </div>
            ) : null}
          </div>
          <button
            type="button"
            onClick={onClose}
            disabled={busy}
            aria-label={intl.formatMessage({ id: 'common.modalDialog.close', defaultMessage: 'Close' })}
            className="-me-2 shrink-0 rounded-md p-2 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 disabled:opacity-60 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
          >
            <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round">
              <path d="M5 5l10 10M15 5L5 15" />
            </svg>
          </button>
        </div>
        <div className="overflow-y-auto px-5 py-5 sm:px-6">{children}</div>
      </div>
    </div>,
    document.body,
  );
}

/** A form dialog's buttons: Cancel, and the submit button saying what it does (and that it is doing it). */
export function DialogActions({ onCancel, pending = false, submitLabel, pendingLabel }: { onCancel: () => void; pending?: boolean; submitLabel: string; pendingLabel?: string }) {
  const intl = useIntl();
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <Button variant="secondary" onClick={onCancel} disabled={pending}>
        {intl.formatMessage({ id: 'common.dialogActions.cancel', defaultMessage: 'Cancel' })}
      </Button>
      <Button type="submit" disabled={pending}>
        {pending && pendingLabel ? pendingLabel : submitLabel}
      </Button>
    </div>
  );
}
