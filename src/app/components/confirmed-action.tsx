import { useState, type ReactNode } from 'react';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { FormError } from './form-error';

/** The part of a TanStack Query mutation (with no variables) this needs. */
interface Action<T> {
  mutate: (variables: undefined, options: { onSuccess: (result: T) => void }) => void;
  reset: () => void;
  isPending: boolean;
  error: unknown;
}

/**
 * An action behind a confirmation (deleting, revoking, rotating): the button opens the dialog (which names
 * what happens), confirming runs the mutation, a refusal shows inside the dialog.
 */
export function ConfirmedAction<T>({
  label,
  accessibleName,
  variant = 'danger',
  size = 'normal',
  title,
  pendingLabel,
  action,
  onDone,
  children,
}: {
  label: string;
  /** The opening button's name when `label` alone is ambiguous (one per row of a list): "Revoke “Q3 report”". */
  accessibleName?: string;
  /** `small` for a row of a list. */
  size?: 'normal' | 'small';
  /** The opening button; `secondary` for a consequential but not destructive action. */
  variant?: 'danger' | 'secondary';
  title: string;
  pendingLabel: string;
  action: Action<T>;
  onDone: (result: T) => void;
  /** What confirming does, in the dialog. */
  children: ReactNode;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button
        variant={variant}
        aria-label={accessibleName}
        className={size === 'small' ? 'px-2.5 py-1 text-xs' : ''}
        onClick={() => {
          action.reset();
          setConfirming(true);
        }}
      >
        {label}
      </Button>
      {confirming ? (
        <ConfirmDialog
          title={title}
          confirmLabel={label}
          pendingLabel={pendingLabel}
          pending={action.isPending}
          error={action.error ? <FormError error={action.error} /> : null}
          onConfirm={() =>
            action.mutate(undefined, {
              onSuccess: (result) => {
                setConfirming(false);
                onDone(result);
              },
            })
          }
          onCancel={() => setConfirming(false)}
        >
          {children}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
