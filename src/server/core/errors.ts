import type { z } from 'zod';
import { errorStatus, type ErrorBody, type ErrorCode } from '../../contract/errors.js';
import { isSentence, said, type Sentence } from './sentences.js';

/**
 * The one error type handlers throw; `app.onError` renders it in the spec's Error shape. Its message is a `Sentence`
 * (`said(…)`) when it can be written in the reader's language, or plain English; `message` is always the English.
 */
export class ApiError extends Error {
  readonly status: number;
  /** The message as a translatable sentence, when it was given as one. */
  readonly sentence: Sentence | null;
  constructor(
    readonly code: ErrorCode,
    message: string | Sentence,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(isSentence(message) ? message.english : message);
    this.sentence = isSentence(message) ? message : null;
    this.status = errorStatus[code];
  }
}

export function errorBody(publicUrl: string, code: ErrorCode | string, message: string, details: Record<string, unknown> = {}): ErrorBody {
  return { error: { code, message, details, docs: `${publicUrl}/docs/errors#${code}` } };
}

/** zod-openapi names its targets after the parser (`json`, `param`); errors speak of where the field was. */
export const inputLocation = (target: string) => ({ json: 'body', form: 'body', param: 'path' } as Record<string, string>)[target] ?? target;

/** "Invalid body: path: problem": where a request was wrong, the field, and what is wrong with it (a problem zod wrote stays as zod wrote it). */
export const invalidInput = (location: string, path: string, problem: string | Sentence): Sentence =>
  said(
    {
      id: 'api.request.invalidField',
      defaultMessage: '{location, select, body {Invalid body} query {Invalid query} path {Invalid path} header {Invalid header} other {Invalid {location}}}: {path}: {problem}',
      description: 'location: where in the request (body, query, path, header); path: the field, as the API names it (e.g. files.0.name); problem: what is wrong with it',
    },
    { location, path, problem },
  );

/** Turns zod issues into `details.fields`, each naming the offending field by its dotted path. */
export function validationError(issues: readonly z.core.$ZodIssue[], target: 'body' | 'query' | 'path' | 'header' | string): ApiError {
  const where = inputLocation(target);
  const fields = issues.map((i) => ({ path: i.path.map(String).join('.') || where, message: i.message }));
  const first = fields[0];
  const message = first
    ? invalidInput(where, first.path, first.message)
    : said(
        {
          id: 'api.request.invalid',
          defaultMessage: '{location, select, body {Invalid body} query {Invalid query} path {Invalid path} header {Invalid header} other {Invalid {location}}}',
          description: 'location: where in the request (body, query, path, header)',
        },
        { location: where },
      );
  return new ApiError('invalid_request', message, { location: where, fields });
}

/** `404 not_found`: what was not found is said by the caller (`said({ …, defaultMessage: 'Transfer not found' })`). */
export const notFound = (message: Sentence = said({ id: 'api.request.resourceNotFound', defaultMessage: 'Resource not found' })) => new ApiError('not_found', message);

/**
 * `400 invalid_request` naming one field, for a rule a schema cannot check alone (it depends on stored state). The
 * problem is a sentence (`said(…)`); `details.fields[].message` holds its English, as every detail is the same in each language.
 */
export const invalidField = (location: 'body' | 'query' | 'path', path: string, problem: Sentence) =>
  new ApiError('invalid_request', invalidInput(location, path, problem), { location, fields: [{ path, message: problem.english }] });
