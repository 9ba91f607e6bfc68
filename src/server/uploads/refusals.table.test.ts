import { ERRORS, TUS_RESUMABLE } from '@tus/server';
import { describe, expect, it } from 'vitest';
import { errorStatus, type ErrorCode } from '../../contract/errors.js';
import { ApiError } from '../core/errors.js';
import { refuse, tusRefusal, tusRefusals } from './refusals.js';
import { said } from '../core/sentences.js';

/**
 * How each error @tus/server can produce is answered, as a table of error → (status, code). The
 * status is the one tus 1.0 gives the condition (or, where tus 1.0 says nothing, the one we chose
 * for it), and the code is always the one `errorStatus` pairs with that status.
 */

const expected: Record<keyof typeof ERRORS, [status: number, code: ErrorCode, reason?: string]> = {
  MISSING_OFFSET: [400, 'invalid_request'],
  INVALID_CONTENT_TYPE: [415, 'unsupported_media_type'],
  FILE_NOT_FOUND: [404, 'not_found'],
  INVALID_OFFSET: [409, 'conflict', 'offset_mismatch'],
  FILE_NO_LONGER_EXISTS: [410, 'gone'],
  ERR_SIZE_EXCEEDED: [413, 'payload_too_large'],
  ERR_MAX_SIZE_EXCEEDED: [413, 'payload_too_large'],
  INVALID_LENGTH: [400, 'invalid_request'],
  INVALID_METADATA: [400, 'invalid_request'],
  UNSUPPORTED_CONCATENATION_EXTENSION: [400, 'invalid_request'],
  UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION: [400, 'invalid_request'],
  UNSUPPORTED_EXPIRATION_EXTENSION: [501, 'not_implemented'],
  INVALID_TERMINATION: [409, 'conflict', 'upload_complete'],
  ERR_LOCK_TIMEOUT: [423, 'locked'],
  ABORTED: [400, 'invalid_request', 'upload_interrupted'],
  UNKNOWN_ERROR: [500, 'internal_error'],
  FILE_WRITE_ERROR: [500, 'internal_error'],
};

function expectRefusal(err: ApiError, status: number, code: ErrorCode, reason?: string) {
  expect(err).toBeInstanceOf(ApiError);
  expect(err.status).toBe(status);
  expect(err.code).toBe(code);
  expect(errorStatus[err.code]).toBe(err.status);
  expect(err.message.trim()).not.toBe('');
  if (reason) expect(err.details.reason).toBe(reason);
}

describe('errors thrown inside @tus/server', () => {
  it('has an entry for every error @tus/server defines', () => {
    expect(Object.keys(expected).sort()).toEqual(Object.keys(ERRORS).sort());
  });

  it.each(Object.entries(expected))('%s', (name, [status, code, reason]) => {
    const error = ERRORS[name as keyof typeof ERRORS];
    // As thrown (the ERRORS object itself), and as the plain-text response @tus/server writes for it.
    expectRefusal(tusRefusal(error), status, code, reason);
    expectRefusal(tusRefusal({ status_code: error.status_code, body: error.body }), status, code, reason);
  });

  it('recognises an error class that copies an ERRORS entry (StreamLimiter throws one)', () => {
    const copy = Object.assign(new Error(ERRORS.ERR_MAX_SIZE_EXCEEDED.body), { ...ERRORS.ERR_MAX_SIZE_EXCEEDED });
    expectRefusal(tusRefusal(copy), 413, 'payload_too_large');
  });

  it('never shows the text of an unexpected error', () => {
    const thrown = tusRefusal(new Error('connect ECONNREFUSED 10.0.0.7:5432'));
    expectRefusal(thrown, 500, 'internal_error');
    const written = tusRefusal({ status_code: 500, body: `${ERRORS.UNKNOWN_ERROR.body}connect ECONNREFUSED 10.0.0.7:5432\n` });
    expectRefusal(written, 500, 'internal_error');
    for (const err of [thrown, written]) expect(err.message).not.toMatch(/ECONNREFUSED/);
  });
});

describe('responses @tus/server writes before dispatching', () => {
  it.each([
    ['Tus-Resumable missing', 412, 'Tus-Resumable Required\n', 412, 'precondition_failed', undefined],
    ['Tus-Resumable unsupported', 400, 'Invalid tus-resumable\n', 412, 'precondition_failed', ['Tus-Resumable']],
    ['Content-Type not the PATCH media type', 400, 'Invalid content-type\n', 415, 'unsupported_media_type', ['Content-Type']],
    ['Content-Type among other invalid headers', 400, 'Invalid upload-offset content-type\n', 415, 'unsupported_media_type', ['Content-Type']],
    ['Upload-Offset not a number', 400, 'Invalid upload-offset\n', 400, 'invalid_request', ['Upload-Offset']],
    ['several invalid headers', 400, 'Invalid upload-length upload-metadata\n', 400, 'invalid_request', ['Upload-Length', 'Upload-Metadata']],
    ['no handler for the method', 404, 'Not found\n', 404, 'not_found', undefined],
  ] as const)('%s', (_, status, body, wantStatus, wantCode, fields) => {
    const err = tusRefusal({ status_code: status, body });
    expectRefusal(err, wantStatus, wantCode);
    if (fields) expect((err.details.fields as { path: string }[]).map((f) => f.path)).toEqual(fields);
    if (wantStatus === 412) expect(err.headers['Tus-Version']).toBe(TUS_RESUMABLE);
  });

  it('gives a status it does not know the general code of that status, and never another status', () => {
    for (const status of [400, 402, 418, 423, 451, 500, 502, 507]) {
      const err = tusRefusal({ status_code: status, body: 'something new\n' });
      expect(errorStatus[err.code]).toBe(err.status);
      expect(Math.floor(err.status / 100)).toBe(Math.floor(status / 100));
    }
  });
});

describe('the refusal table', () => {
  it.each(Object.keys(tusRefusals))('%s travels with its own status', (kind) => {
    const err = refuse(kind as keyof typeof tusRefusals);
    expect(errorStatus[err.code]).toBe(err.status);
    expect(err.message.trim()).not.toBe('');
  });

  it('passes our own refusals through unchanged', () => {
    const own = refuse('upload_exists');
    expect(tusRefusal(own)).toBe(own);
  });

  it('names the header a header refusal is about', () => {
    const err = refuse('invalid_length', { problem: said({ id: 'api.uploads.lengthMustBe', defaultMessage: 'must be {size}, the registered size of this file' }, { size: '1000' }) });
    expect(err.message).toBe('Invalid header: Upload-Length: must be 1000, the registered size of this file');
    expect(err.details).toEqual({ location: 'header', fields: [{ path: 'Upload-Length', message: 'must be 1000, the registered size of this file' }] });
  });
});
