import type { z } from 'zod';
import { errorStatus, type ErrorBody, type ErrorCode } from '../../contract/errors.js';

/** The one error type handlers throw; `app.onError` renders it in the spec's Error shape. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = errorStatus[code];
  }
}

export function errorBody(publicUrl: string, code: ErrorCode | string, message: string, details: Record<string, unknown> = {}): ErrorBody {
  return { error: { code, message, details, docs: `${publicUrl}/docs/errors#${code}` } };
}

/** zod-openapi names its targets after the parser (`json`, `param`); errors speak of where the field was. */
export const inputLocation = (target: string) => ({ json: 'body', form: 'body', param: 'path' } as Record<string, string>)[target] ?? target;

/** Turns zod issues into `details.fields`, each naming the offending field by its dotted path. */
export function validationError(issues: readonly z.core.$ZodIssue[], target: 'body' | 'query' | 'path' | 'header' | string): ApiError {
  const where = inputLocation(target);
  const fields = issues.map((i) => ({ path: i.path.map(String).join('.') || where, message: i.message }));
  const first = fields[0];
  const message = first ? `Invalid ${where}: ${first.path}: ${first.message}` : `Invalid ${where}`;
  return new ApiError('invalid_request', message, { location: where, fields });
}

export const notFound = (what = 'Resource') => new ApiError('not_found', `${what} not found`);

/** `400 invalid_request` naming one field, for a rule a schema cannot check alone (it depends on stored state). */
export const invalidField = (location: 'body' | 'query' | 'path', path: string, message: string) =>
  new ApiError('invalid_request', `Invalid ${location}: ${path}: ${message}`, { location, fields: [{ path, message }] });
