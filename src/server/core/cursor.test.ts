import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { limitParam } from '../../contract/pagination.js';
import { ApiError } from './errors.js';
import { decodeCursor, encodeCursor, type CursorPosition } from './cursor.js';

const key = randomBytes(32);

function expectInvalidCursor(decode: () => unknown) {
  let thrown: unknown;
  try {
    decode();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(ApiError);
  expect((thrown as ApiError).code).toBe('invalid_request');
  expect((thrown as ApiError).status).toBe(400);
  expect((thrown as ApiError).details).toMatchObject({ fields: [{ path: 'cursor' }] });
}

describe('pagination cursors', () => {
  it.each<[string, CursorPosition]>([
    ['a timestamp and an id', ['2026-03-10T12:00:00.000Z', 'tr_4fQ9s0aQ2nVt7LbX4cRw']],
    ['a number', [42]],
    ['an empty position', []],
    ['text outside ASCII', ['Zoë “quoted” ✓', 0]],
  ])('decode what they encoded: %s', (_, position) => {
    const cursor = encodeCursor(key, 'transfers', 'ws_a', position);
    expect(decodeCursor(key, 'transfers', 'ws_a', cursor)).toEqual(position);
  });

  it('are opaque URL-safe text that does not spell out the workspace', () => {
    const cursor = encodeCursor(key, 'transfers', 'ws_secret', ['x']);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('ws_secret');
  });

  it('mean "first page" when no cursor is given', () => {
    expect(decodeCursor(key, 'transfers', 'ws_a', undefined)).toBeNull();
  });

  it('refuse a cursor from another list', () => {
    const cursor = encodeCursor(key, 'webhook-events', 'ws_a', [1]);
    expectInvalidCursor(() => decodeCursor(key, 'transfers', 'ws_a', cursor));
  });

  it('refuse a cursor from another workspace', () => {
    const cursor = encodeCursor(key, 'transfers', 'ws_b', [1]);
    expectInvalidCursor(() => decodeCursor(key, 'transfers', 'ws_a', cursor));
  });

  it('refuse a cursor whose payload was changed', () => {
    const [, signature] = encodeCursor(key, 'transfers', 'ws_a', [1]).split('.');
    const forgedPayload = Buffer.from(JSON.stringify(['transfers', 'ws_a', [999]])).toString('base64url');
    expectInvalidCursor(() => decodeCursor(key, 'transfers', 'ws_a', `${forgedPayload}.${signature}`));
  });

  it('refuse a cursor whose signature was changed', () => {
    const cursor = encodeCursor(key, 'transfers', 'ws_a', [1]);
    const last = cursor.at(-1) === 'A' ? 'B' : 'A';
    expectInvalidCursor(() => decodeCursor(key, 'transfers', 'ws_a', `${cursor.slice(0, -1)}${last}`));
  });

  it('refuse a cursor signed with another server key', () => {
    const cursor = encodeCursor(randomBytes(32), 'transfers', 'ws_a', [1]);
    expectInvalidCursor(() => decodeCursor(key, 'transfers', 'ws_a', cursor));
  });

  it.each(['garbage', '', '.', 'a.b.c', '%%%.***', 'e30.'])('refuse the string %j', (garbage) => {
    expectInvalidCursor(() => decodeCursor(key, 'transfers', 'ws_a', garbage));
  });

  it('refuse a valid cursor with something appended', () => {
    const cursor = encodeCursor(key, 'transfers', 'ws_a', [1]);
    expectInvalidCursor(() => decodeCursor(key, 'transfers', 'ws_a', `${cursor}.extra`));
  });
});

describe('limitParam', () => {
  const transfersLimit = limitParam(500, 100);

  it.each(['0', '501', '1.5', '-1', 'abc', '', '10abc', '0x10', '1e2', ' 10', '10 ', '+10', '1.0', '１０', '99999999999999999999', '010', '00', '0500', 10, ['10', '20']])(
    'rejects %j: only plain decimal digits without leading zeros are a limit',
    (value) => {
      const result = transfersLimit.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('limit must be an integer from 1 to 500');
    },
  );

  it.each([
    ['1', 1],
    ['500', 500],
    ['10', 10],
  ])('accepts %j as %d', (value, expected) => {
    expect(transfersLimit.parse(value)).toBe(expected);
  });

  it('applies the default page size when limit is absent', () => {
    expect(transfersLimit.parse(undefined)).toBe(100);
  });

  it('leaves limit absent, meaning everything, when the list has no default page', () => {
    const collectionFilesLimit = limitParam(1000, undefined);
    expect(collectionFilesLimit.parse(undefined)).toBeUndefined();
    expect(collectionFilesLimit.parse('1000')).toBe(1000);
    expect(collectionFilesLimit.safeParse('1001').success).toBe(false);
  });
});
