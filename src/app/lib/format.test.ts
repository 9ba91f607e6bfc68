import { afterEach, describe, expect, it, vi } from 'vitest';

describe('formatting under a German browser', () => {
  const saved = { DateTimeFormat: Intl.DateTimeFormat, RelativeTimeFormat: Intl.RelativeTimeFormat, NumberFormat: Intl.NumberFormat, toLocaleString: Number.prototype.toLocaleString };
  const languages = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages');
  afterEach(() => {
    Object.assign(Intl, { DateTimeFormat: saved.DateTimeFormat, RelativeTimeFormat: saved.RelativeTimeFormat, NumberFormat: saved.NumberFormat });
    Number.prototype.toLocaleString = saved.toLocaleString;
    if (languages) Object.defineProperty(Navigator.prototype, 'languages', languages);
    vi.resetModules();
  });

  /** What a browser set to German does: the default locale of every formatter is de-DE. */
  function browseInGerman() {
    Object.defineProperty(Navigator.prototype, 'languages', { configurable: true, get: () => ['de-DE', 'de'] });
    const de = (locales: Intl.LocalesArgument) => locales ?? 'de-DE';
    Object.assign(Intl, {
      DateTimeFormat: class extends saved.DateTimeFormat {
        constructor(locales?: Intl.LocalesArgument, options?: Intl.DateTimeFormatOptions) {
          super(de(locales), options);
        }
      },
      RelativeTimeFormat: class extends saved.RelativeTimeFormat {
        constructor(locales?: Intl.LocalesArgument, options?: Intl.RelativeTimeFormatOptions) {
          super(de(locales), options);
        }
      },
      NumberFormat: class extends saved.NumberFormat {
        constructor(locales?: Intl.LocalesArgument, options?: Intl.NumberFormatOptions) {
          super(de(locales), options);
        }
      },
    });
    Number.prototype.toLocaleString = function (this: number, locales?: Intl.LocalesArgument, options?: Intl.NumberFormatOptions) {
      return saved.toLocaleString.call(this, de(locales), options);
    };
  }

  it('writes relative times, dates and numbers in the English of an English page, not in the browser’s language', async () => {
    browseInGerman();
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

describe('formatting in the page’s language', () => {
  afterEach(() => vi.resetModules());

  it('writes dates, relative times, numbers and sizes as a German or French reader reads them', async () => {
    vi.resetModules();
    const { applyLocale } = await import('./intl');
    const { formatRelativeTime, formatMonth, formatInteger, formatBytes } = await import('./format');
    const now = Date.parse('2026-11-22T12:00:00Z');
    applyLocale('de', {}, ['de-DE']);
    expect([formatRelativeTime('2026-12-06T12:00:00Z', now), formatMonth('2026-03'), formatInteger(1234567), formatBytes(2_500_000), formatBytes(919)]).toEqual([
      'in 2 Wochen',
      'März 2026',
      '1.234.567',
      '2,5 MB',
      '919 Byte',
    ]);
    applyLocale('fr', {}, ['fr-FR']);
    expect(formatBytes(2_500_000)).toBe('2,5\u202fMo');
    applyLocale('en', {}, ['de-DE', 'en-GB']);
    expect([formatRelativeTime('2026-11-20T12:00:00Z', now), formatBytes(2_500_000)]).toEqual(['2 days ago', '2.5 MB']);
  });
});
