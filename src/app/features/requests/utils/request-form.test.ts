import { describe, expect, it } from 'vitest';
import { uploadRequestFixture } from '../testing/request-fixtures';
import {
  bytesFromSize,
  changesBody,
  draftFromRequest,
  fromDateTimeLocal,
  parseTypes,
  sizeFromBytes,
  toDateTimeLocal,
  validateRequestDraft,
} from './request-form';
import { requestState } from './request-status';

describe('request form values', () => {
  it('turns sizes into bytes in decimal units, and back', () => {
    expect(bytesFromSize('1.5', 'GB')).toBe(1_500_000_000);
    expect(bytesFromSize('250', 'MB')).toBe(250_000_000);
    expect(sizeFromBytes(2_000_000_000)).toEqual({ maxSize: '2', maxSizeUnit: 'GB' });
    expect(sizeFromBytes(1_500_000_000)).toEqual({ maxSize: '1500', maxSizeUnit: 'MB' });
    expect(sizeFromBytes(null)).toEqual({ maxSize: '', maxSizeUnit: 'GB' });
  });

  it('reads a datetime-local value in the browser’s time zone and writes it back to the minute', () => {
    const iso = fromDateTimeLocal('2031-05-01T09:30')!;
    expect(iso).toBe(new Date(2031, 4, 1, 9, 30).toISOString());
    expect(toDateTimeLocal(iso)).toBe('2031-05-01T09:30');
    expect(fromDateTimeLocal('not a date')).toBeNull();
  });

  it('splits typed types on commas and spaces, lower-cased', () => {
    expect(parseTypes(' Image/*, application/pdf ;text/plain  ')).toEqual(['image/*', 'application/pdf', 'text/plain']);
  });

  it('checks the limits the API has', () => {
    const draft = { ...draftFromRequest(null), title: 'x', collectionId: 'col_1' };
    expect(validateRequestDraft(draft)).toEqual({});
    expect(validateRequestDraft({ ...draft, maxFiles: '1.5' }).maxFiles).toMatch(/whole number/);
    expect(validateRequestDraft({ ...draft, maxFiles: '10001' }).maxFiles).toBe('Use at most 10,000.');
    expect(validateRequestDraft({ ...draft, maxSize: '-1' }).maxBytes).toMatch(/above 0/);
    expect(validateRequestDraft({ ...draft, allowedTypes: ['image'] }).allowedTypes).toMatch(/“image” is not a file type/);
    expect(validateRequestDraft({ ...draft, title: 'a'.repeat(201) }).title).toBe('Use at most 200 characters.');
  });

  it('sends back only what changed when editing; clearing a value sends null', () => {
    const initial = draftFromRequest(uploadRequestFixture({ maxFiles: 10, maxBytes: 1_234_567, deadline: '2031-01-01T00:00:00.000Z' }));
    expect(changesBody(initial, initial)).toEqual({});
    expect(changesBody(initial, { ...initial, maxFiles: '', deadline: '', message: '  ' })).toEqual({ maxFiles: null, deadline: null, message: null });
    // Another collection resets the folder to its top level unless one was chosen.
    expect(changesBody(initial, { ...initial, collectionId: 'col_2' })).toEqual({ collectionId: 'col_2', folderId: null });
    expect(changesBody(initial, { ...initial, allowedTypes: ['video/*'] })).toEqual({ allowedTypes: ['video/*'] });
  });

  it('names a request’s state from its status, whether it takes files, and its deadline', () => {
    const past = new Date(Date.now() - 1000).toISOString();
    expect(requestState({ status: 'open', acceptingFiles: true, deadline: null })).toBe('open');
    expect(requestState({ status: 'open', acceptingFiles: false, deadline: past })).toBe('deadline');
    expect(requestState({ status: 'open', acceptingFiles: false, deadline: null })).toBe('on_hold');
    expect(requestState({ status: 'paused', acceptingFiles: false, deadline: past })).toBe('paused');
    expect(requestState({ status: 'closed', acceptingFiles: false, deadline: null })).toBe('closed');
  });
});
