import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

export const inputClass =
  'block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs placeholder:text-zinc-400 aria-invalid:border-red-600 read-only:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:aria-invalid:border-red-400 dark:read-only:bg-zinc-900/60';

export const labelClass = 'block text-sm font-medium text-zinc-800 dark:text-zinc-200';

/** What a field's control needs to be tied to its label, hint and error. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FormFieldProps {
  label: string;
  /** Shown under the field and tied to it with aria-describedby; marks the field invalid. */
  error?: string | undefined;
  hint?: ReactNode;
  className?: string;
  /** The control (an input, a textarea, a select, or one with a button beside it), given the props that tie it to the label, hint and error. */
  children: (control: FieldControlProps) => ReactNode;
}

/** A label, a control, a hint and an error, tied together: the frame of every text field. */
export function FormField({ label, error, hint, className = '', children }: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** Shown under the field and tied to it with aria-describedby; marks the field invalid. */
  error?: string | undefined;
  hint?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

export function TextField({ label, error, hint, className = '', ...input }: TextFieldProps) {
  return (
    <FormField label={label} error={error} hint={hint} className={className}>
      {(control) => <input className={`${inputClass} mt-1`} {...control} {...input} />}
    </FormField>
  );
}

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  ref?: Ref<HTMLTextAreaElement>;
}

/** Paragraphs of text (a message): like TextField, resizable in height. */
export function TextAreaField({ label, error, hint, className = '', rows = 3, ...textarea }: TextAreaFieldProps) {
  return (
    <FormField label={label} error={error} hint={hint} className={className}>
      {(control) => <textarea rows={rows} className={`${inputClass} mt-1 resize-y`} {...control} {...textarea} />}
    </FormField>
  );
}

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  ref?: Ref<HTMLSelectElement>;
}

/** One choice from a list, labelled like the text fields. */
export function SelectField({ label, error, hint, className = '', children, ...select }: SelectFieldProps) {
  return (
    <FormField label={label} error={error} hint={hint} className={className}>
      {(control) => (
        <select className={`${inputClass} mt-1`} {...control} {...select}>
          {children}
        </select>
      )}
    </FormField>
  );
}
