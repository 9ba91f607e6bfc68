import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../../lib/api-error';
import { importNameProblem, importServerErrors, importUrlProblem } from './import-form';

describe('importUrlProblem', () => {
  it('takes https, and http (the server decides whether it may)', () => {
    expect(importUrlProblem('https://example.com/report.pdf', { typing: false })).toBeUndefined();
    expect(importUrlProblem('  https://bucket.example.com/a?sig=x  ', { typing: false })).toBeUndefined();
    expect(importUrlProblem('http://127.0.0.1:8080/a.bin', { typing: false })).toBeUndefined();
  });

  it('says at once, while typing, when the scheme is another one', () => {
    expect(importUrlProblem('ftp://example.com/a', { typing: true })).toBe('Use an https:// address.');
    expect(importUrlProblem('file:///etc/passwd', { typing: true })).toBe('Use an https:// address.');
    // Half-typed, it may still become https.
    expect(importUrlProblem('h', { typing: true })).toBeUndefined();
    expect(importUrlProblem('https:', { typing: true })).toBeUndefined();
    expect(importUrlProblem('https://', { typing: true })).toBeUndefined();
  });

  it('says what is missing once the field is left', () => {
    expect(importUrlProblem('', { typing: false })).toBe('Enter the address of the file.');
    expect(importUrlProblem('example.com/report.pdf', { typing: false })).toBe('Enter a full address, such as https://example.com/report.pdf.');
    expect(importUrlProblem('https://', { typing: false })).toBe('Enter a full address, such as https://example.com/report.pdf.');
    expect(importUrlProblem(`https://example.com/${'a'.repeat(4096)}`, { typing: true })).toBe('Use at most 4,096 characters.');
  });
});

describe('importNameProblem', () => {
  it('leaves an empty name to the server and refuses slashes', () => {
    expect(importNameProblem('')).toBeUndefined();
    expect(importNameProblem('report.pdf')).toBeUndefined();
    expect(importNameProblem('a/b.pdf')).toBe('A file name cannot contain “/” or “\\”.');
    expect(importNameProblem('x'.repeat(256))).toBe('Use at most 255 characters.');
  });
});

describe('importServerErrors', () => {
  it('puts the refusal of imports.0.url on the url field', () => {
    const refused = new ApiRequestError({
      status: 400,
      code: 'invalid_request',
      message: 'The request is invalid',
      details: { location: 'body', fields: [{ path: 'imports.0.url', message: 'url must be an https URL' }] },
    });
    expect(importServerErrors(refused)).toEqual({ url: 'Must be an https URL.' });
  });

  it('leaves other refusals to the dialog’s general message', () => {
    expect(importServerErrors(new ApiRequestError({ status: 402, code: 'out_of_credit', message: 'Out of credit' }))).toEqual({});
    expect(importServerErrors(new Error('offline'))).toEqual({});
  });
});
