import { formatBytes as formatBytesIn } from '../../contract/units';
import { currentIntl } from './intl';

/**
 * The locale this page writes dates, relative times and numbers in: its language's (src/app/lib/i18n.tsx sets it
 * before the first render and when the reader picks another), so a German page never shows an English date, nor an
 * English page a German one. A server render writes it on the page (src/app/lib/server-render.tsx).
 */
export let locale = 'en';

interface Formats {
  date: Intl.DateTimeFormat;
  dateTime: Intl.DateTimeFormat;
  relative: Intl.RelativeTimeFormat;
  integer: Intl.NumberFormat;
  euro: Intl.NumberFormat;
  month: Intl.DateTimeFormat;
}
const formatsByLocale = new Map<string, Formats>();

function formats(): Formats {
  let made = formatsByLocale.get(locale);
  if (!made) {
    made = {
      date: new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }),
      dateTime: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
      relative: new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }),
      integer: new Intl.NumberFormat(locale),
      euro: new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }),
      month: new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    };
    formatsByLocale.set(locale, made);
  }
  return made;
}

/** Writes from now on in `tag` (a BCP 47 tag: the page's language, in the reader's variant of it). */
export function setFormatLocale(tag: string): void {
  locale = tag;
}

export function formatDate(iso: string): string {
  return formats().date.format(new Date(iso));
}

export function formatDateTime(iso: string): string {
  return formats().dateTime.format(new Date(iso));
}

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 days ago", "in 2 hours", "just now". */
export function formatRelativeTime(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (Math.abs(seconds) < 45) return currentIntl().formatMessage({ id: 'time.justNow', defaultMessage: 'just now' });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return formats().relative.format(Math.round(seconds / size), unit);
  }
  return formats().relative.format(Math.round(seconds / 60), 'minute');
}

export function formatInteger(value: number): string {
  return formats().integer.format(value);
}

export function formatEuros(value: number): string {
  return formats().euro.format(value);
}

/** Decimal units, as storage is sold: 1 GB = 1,000,000,000 bytes (one convention, see contract/units). */
export function formatBytes(bytes: number): string {
  return formatBytesIn(bytes, locale);
}

/** "2026-11" → "November 2026". */
export function formatMonth(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number);
  if (!year || !monthNumber) return month;
  return formats().month.format(new Date(Date.UTC(year, monthNumber - 1, 1)));
}
