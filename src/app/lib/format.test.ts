import { afterEach, describe, expect, it, vi } from 'vitest';
import { interfaceLocale } from './format';

describe('interfaceLocale', () => {
  it.each([
    [['de-DE'], 'en'],
    [['de-DE', 'en-GB'], 'en-GB'],
    [['en-US', 'de'], 'en-US'],
    [['fr', 'EN'], 'EN'],
    [['eno'], 'en'],
    [[], 'en'],
  ])('%j → %s', (languages, expected) => {
    expect(interfaceLocale(languages)).toBe(expected);
  });
});

describe('formatting under a German browser', () => {
  const original = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages');
  afterEach(() => {
    if (original) Object.defineProperty(Navigator.prototype, 'languages', original);
    vi.resetModules();
  });

  it('writes relative times, dates and numbers in the English of the interface', async () => {
    Object.defineProperty(Navigator.prototype, 'languages', { configurable: true, get: () => ['de-DE', 'de'] });
    vi.resetModules();
    const { formatRelativeTime, formatDate, formatInteger, formatMonth, formatBytes } = await import('./format');
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(formatRelativeTime('2026-12-06T12:00:00Z', now)).toBe('in 2 weeks');
    expect(formatRelativeTime('2026-11-20T12:00:00Z', now)).toBe('2 days ago');
    expect(formatDate('2026-11-22T12:00:00Z')).toMatch(/Nov/);
    expect(formatMonth('2026-03')).toBe('March 2026');
    expect(formatInteger(1234567)).toBe('1,234,567');
    expect(formatBytes(2_500_000)).toBe('2.5 MB');
  });
});
