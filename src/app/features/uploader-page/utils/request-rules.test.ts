import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../../lib/api-error';
import { allowedTypesInWords, detailErrors, limitsInWords, refusalMessage } from './request-rules';

describe('the request’s rules in words', () => {
  it('names allowed types as people say them, each once', () => {
    expect(allowedTypesInWords([])).toBeNull();
    expect(allowedTypesInWords(['image/*'])).toBe('images');
    expect(allowedTypesInWords(['application/pdf', 'application/msword', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'])).toBe(
      'PDF documents or Word documents',
    );
    expect(allowedTypesInWords(['image/*', 'video/*', 'image/x-icon'])).toBe('images, videos, or ICON images');
    expect(allowedTypesInWords(['application/x-very-long-format-name'])).toBe('application/x-very-long-format-name files');
  });

  it('says the limits of each delivery', () => {
    expect(limitsInWords({ maxFiles: null, maxBytes: null })).toBe('As many files as you like');
    expect(limitsInWords({ maxFiles: 1, maxBytes: null })).toBe('Up to 1 file');
    expect(limitsInWords({ maxFiles: null, maxBytes: 5_000_000 })).toBe('Up to 5 MB in all');
  });

  it('requires an email only when the request does, and checks any that is typed', () => {
    expect(detailErrors({ name: ' ', email: '', message: '' }, false)).toEqual({ name: 'Enter your name' });
    expect(detailErrors({ name: 'Ada', email: '', message: '' }, true)).toEqual({ email: 'Enter your email address' });
    expect(detailErrors({ name: 'Ada', email: 'ada@', message: '' }, false)).toEqual({ email: 'Enter a valid email address' });
    expect(detailErrors({ name: 'Ada', email: 'ada@example.com', message: 'x'.repeat(2001) }, true)).toEqual({ message: 'Use at most 2,000 characters' });
  });

  it('puts a refusal of the server in the request’s units', () => {
    const refused = (message: string, path = 'files') =>
      new ApiRequestError({ status: 400, code: 'invalid_request', message: `Invalid body: ${path}: ${message}`, details: { fields: [{ path, message }] } });
    const request = { maxFiles: 3, maxBytes: 2_000_000_000 };
    expect(refusalMessage(refused('this request takes at most 2000000000 bytes per submission'), request)).toEqual(
      new Error('These files were not accepted: this request takes at most 2 GB each time you send.'),
    );
    expect(refusalMessage(refused('this request takes at most 3 files per submission'), request)).toEqual(
      new Error('These files were not accepted: this request takes at most 3 files each time you send.'),
    );
    const type = 'this request takes only files of type image/*; “notes.pdf” is application/pdf';
    expect(refusalMessage(refused(type, 'files.0.mimeType'), request)).toEqual(new Error(`These files were not accepted: ${type}.`));
    const other = new ApiRequestError({ status: 429, code: 'rate_limited', message: 'Too many submissions from this address; try again later.' });
    expect(refusalMessage(other, request)).toBe(other);
  });
});
