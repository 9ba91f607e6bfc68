import type { FormHTMLAttributes, KeyboardEvent, Ref } from 'react';

/** Inputs where Enter means "submit the form" to a browser (implicit submission); buttons and checkboxes are not among them. */
const IMPLICITLY_SUBMITTING = new Set(['text', 'email', 'search', 'tel', 'url', 'password', 'number', 'date', 'datetime-local', 'month', 'time', 'week']);

/** Whether a key press would submit the form implicitly: Enter in a text-like input (not a textarea, where it is a new line). */
export function isImplicitSubmission(event: KeyboardEvent<HTMLElement>): boolean {
  const target = event.target;
  // Enter that confirms an input method's composition (a Japanese name, say) is the input method's.
  if (event.key !== 'Enter' || event.nativeEvent.isComposing) return false;
  return target instanceof HTMLInputElement && IMPLICITLY_SUBMITTING.has(target.type);
}

/**
 * A form whose submit does something that cannot be taken back (mails people, publishes a link):
 * it is submitted only by its submit button (a click, or Enter or Space on the focused button),
 * never by Enter in one of its fields, which browsers otherwise take as "submit" (implicit
 * submission) while the person is still filling it in. A field that gives Enter a meaning of its
 * own (an address field finishing an address) handles it first; otherwise Enter does nothing.
 */
export function DeliberateForm({ onKeyDown, ref, ...props }: FormHTMLAttributes<HTMLFormElement> & { ref?: Ref<HTMLFormElement> }) {
  return (
    <form
      ref={ref}
      {...props}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        // Cancelling the keydown cancels the key's default action, implicit submission included.
        if (isImplicitSubmission(event)) event.preventDefault();
      }}
    />
  );
}
