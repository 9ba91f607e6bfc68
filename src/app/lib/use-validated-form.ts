import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { firstInvalid, serverFieldErrors, type FieldErrors } from './form-errors';

/**
 * Text fields checked on submit (and, after a first attempt, as the user types), plus the
 * server's field errors, which stay until the user edits that field. After a failed attempt
 * focus moves to the first field in error, once its message is on screen.
 */
export function useValidatedForm<F extends string>(
  fields: readonly F[],
  initial: Record<F, string>,
  validate: (values: Record<F, string>) => FieldErrors<F>,
) {
  const [values, setValues] = useState(initial);
  const [attempted, setAttempted] = useState(false);
  const [fromServer, setFromServer] = useState<FieldErrors<F>>({});
  const [focusRequest, setFocusRequest] = useState<{ field: F } | null>(null);
  const inputs = useRef<Partial<Record<F, HTMLInputElement | null>>>({});

  useEffect(() => {
    if (focusRequest) inputs.current[focusRequest.field]?.focus();
  }, [focusRequest]);

  const clientErrors = validate(values);
  const errors: FieldErrors<F> = {};
  for (const name of fields) errors[name] = (attempted ? clientErrors[name] : undefined) ?? fromServer[name];

  function field(name: F) {
    return {
      name,
      value: values[name],
      error: errors[name],
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        const value = event.target.value;
        setValues((current) => ({ ...current, [name]: value }));
        setFromServer((current) => ({ ...current, [name]: undefined }));
      },
      ref: (element: HTMLInputElement | null) => {
        inputs.current[name] = element;
      },
    };
  }

  /** Wraps the submit handler: `onValid` runs only when every field passes. */
  function handleSubmit(onValid: (values: Record<F, string>) => void) {
    return (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      setAttempted(true);
      setFromServer({});
      const invalid = firstInvalid(clientErrors, fields);
      if (invalid) {
        setFocusRequest({ field: invalid });
        return;
      }
      onValid(values);
    };
  }

  /** Attaches a failed request's `details.fields` to the fields they name. */
  function showServerErrors(error: unknown) {
    const errorsByField = serverFieldErrors(error, fields);
    setFromServer(errorsByField);
    const invalid = firstInvalid(errorsByField, fields);
    if (invalid) setFocusRequest({ field: invalid });
  }

  /** Empties the form for the next entry (after a success), with no message left over. */
  function reset() {
    setValues(initial);
    setAttempted(false);
    setFromServer({});
  }

  return { values, field, handleSubmit, showServerErrors, reset };
}
