import { fieldProblemAtField, isApiRequestError } from './api-error';

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * Attaches the server's `details.fields` to the form's own fields: `path` is dotted, so
 * `scopes.2` belongs to `scopes`. Paths the form has no field for are left to the general message.
 * Each message is said as a person reads it beside the field (`fieldProblemAtField`), not as the API words it.
 */
export function serverFieldErrors<F extends string>(error: unknown, fields: readonly F[]): FieldErrors<F> {
  if (!isApiRequestError(error)) return {};
  const result: FieldErrors<F> = {};
  for (const { path, message } of error.fieldErrors) {
    const field = fields.find((f) => path === f || path.startsWith(`${f}.`));
    if (field && !result[field]) result[field] = fieldProblemAtField({ path, message });
  }
  return result;
}

/** The first field, in form order, that has an error. */
export function firstInvalid<F extends string>(errors: FieldErrors<F>, fields: readonly F[]): F | undefined {
  return fields.find((field) => errors[field]);
}
