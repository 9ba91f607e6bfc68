import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './safe-redirect';

describe('safeRedirectPath', () => {
  it.each([
    ['/keys', '/keys'],
    ['/keys?tab=new#create', '/keys?tab=new#create'],
    ['/settings/../keys', '/keys'],
  ])('keeps the in-app path %s', (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });

  it.each([
    'https://evil.example/',
    'http:evil.example',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'javascript:alert(1)',
    'keys',
    '',
    '/signin',
    '/signup?ref=x',
    undefined,
    42,
    ['/keys'],
  ])('refuses %j', (input) => {
    expect(safeRedirectPath(input)).toBeUndefined();
  });
});
