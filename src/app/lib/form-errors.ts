import { fieldProblemAtField, isApiRequestError, type FieldError } from './api-error';

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * Attaches the server's `details.fields` to the form's own fields: `path` is dotted, so
 * `scopes.2` belongs to `scopes`. Paths the form has no field for are left to the general message.
 * Each message is said as a person reads it beside the field (`fieldProblemAtField`), not as the API words it.
 */
export function serverFieldErrors<F extends string>(error: unknown, fields: readonly F[]): FieldErrors<F> {
  if (!isApiRequestError(error)) return {};
  return fieldErrorsByField(error.fieldErrors, fields);
}

/**
 * A contract schema's own verdict on the form's values (`Schema.safeParse(values)`), placed and said as
 * `serverFieldErrors` places and says the server's: the form refuses what the API would, in the same words.
 */
export function schemaFieldErrors<F extends string>(
  result: { success: true } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } },
  fields: readonly F[],
): FieldErrors<F> {
  if (result.success) return {};
  return fieldErrorsByField(
    result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
    fields,
  );
}

function fieldErrorsByField<F extends string>(problems: readonly FieldError[], fields: readonly F[]): FieldErrors<F> {
  const result: FieldErrors<F> = {};
  for (const { path, message } of problems) {
    const field = fields.find((f) => path === f || path.startsWith(`${f}.`));
    if (field && !result[field]) result[field] = fieldProblemAtField({ path, message });
  }
  return result;
}

/** The first field, in form order, that has an error. */
export function firstInvalid<F extends string>(errors: FieldErrors<F>, fields: readonly F[]): F | undefined {
  return fields.find((field) => errors[field]);
}
