import { describe, expect, it } from 'vitest';
import { errorFromResponse, fieldProblemAtField, fieldProblemSentence } from './api-error';
import { serverFieldErrors } from './form-errors';

function invalidRequest(fields: { path: string; message: string }[]): Response {
  const first = fields[0]!;
  const error = { code: 'invalid_request', message: `Invalid body: ${first.path}: ${first.message}`, details: { location: 'body', fields }, docs: 'x' };
  return new Response(JSON.stringify({ error }), { status: 400, headers: { 'Content-Type': 'application/json' } });
}

describe('field problems said to a person', () => {
  it('drops the field name beside its field, and keeps it in a sentence of its own', () => {
    const missing = { path: 'password', message: 'password is required for visibility password' };
    expect(fieldProblemAtField(missing)).toBe('Required for visibility password.');
    expect(fieldProblemSentence(missing)).toBe('Password is required for visibility password.');

    const long = { path: 'firstName', message: 'firstName must be at most 200 characters' };
    expect(fieldProblemAtField(long)).toBe('Use at most 200 characters.');
    expect(fieldProblemSentence(long)).toBe('First name must be at most 200 characters.');

    const item = { path: 'recipients.2', message: 'recipients must be valid email addresses' };
    expect(fieldProblemAtField(item)).toBe('Must be valid email addresses.');
  });

  it('names the field when the message does not, and keeps messages already written for a person', () => {
    const nul = { path: 'title', message: 'must not contain NUL characters' };
    expect(fieldProblemAtField(nul)).toBe('Must not contain NUL characters.');
    expect(fieldProblemSentence(nul)).toBe('Title must not contain NUL characters.');

    const human = { path: 'password', message: 'Use at most 200 characters' };
    expect(fieldProblemAtField(human)).toBe('Use at most 200 characters');
    expect(fieldProblemSentence({ path: 'url', message: 'The URL is not a link of this service' })).toBe('The URL is not a link of this service.');
  });
});

describe('errorFromResponse', () => {
  it('words an invalid request by its fields instead of the API\'s "Invalid body: path: message"', async () => {
    const error = await errorFromResponse(
      invalidRequest([
        { path: 'password', message: 'password is required for visibility password' },
        { path: 'title', message: 'title must not be empty' },
      ]),
    );
    expect(error.message).toBe('Password is required for visibility password. Title must not be empty.');
    expect(error.code).toBe('invalid_request');
    expect(error.fieldErrors).toEqual([
      { path: 'password', message: 'password is required for visibility password' },
      { path: 'title', message: 'title must not be empty' },
    ]);
    expect(serverFieldErrors(error, ['password', 'title'] as const)).toEqual({ password: 'Required for visibility password.', title: 'Must not be empty.' });
  });

  it('keeps the message of other errors', async () => {
    const body = { error: { code: 'conflict', message: 'A contact with this email address already exists in the workspace', details: {} } };
    const error = await errorFromResponse(new Response(JSON.stringify(body), { status: 409 }));
    expect(error.message).toBe('A contact with this email address already exists in the workspace');
  });
});
