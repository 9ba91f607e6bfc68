import { formatBytes as formatBytesIn } from '../../contract/units';

/**
 * The interface is in English, so dates, relative times and numbers are too ("in 2 weeks", never
 * "in 2 Wochen" beside English words), in the reader's English variant when the browser lists one
 * (en-GB writes 22 Nov 2026, en-US Nov 22, 2026).
 */
export function interfaceLocale(languages: readonly string[]): string {
  return languages.find((l) => /^en(-|$)/i.test(l)) ?? 'en';
}

/** The locale this page formats in (a server render writes it on the page: src/app/lib/server-render.tsx). */
export const locale = interfaceLocale(typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]));
const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
const relativeFormat = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
const integerFormat = new Intl.NumberFormat(locale);
const euroFormat = new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' });
const monthFormat = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });

export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

export function formatDateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
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
  if (Math.abs(seconds) < 45) return 'just now';
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return relativeFormat.format(Math.round(seconds / size), unit);
  }
  return relativeFormat.format(Math.round(seconds / 60), 'minute');
}

export function formatInteger(value: number): string {
  return integerFormat.format(value);
}

/** "1 file", "1,024 files". */
export function plural(count: number, one: string, many: string): string {
  return `${formatInteger(count)} ${count === 1 ? one : many}`;
}

export function formatEuros(value: number): string {
  return euroFormat.format(value);
}

/** Decimal units, as storage is sold: 1 GB = 1,000,000,000 bytes (one convention, see contract/units). */
export function formatBytes(bytes: number): string {
  return formatBytesIn(bytes, locale);
}

/** "2026-11" → "November 2026". */
export function formatMonth(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number);
  if (!year || !monthNumber) return month;
  return monthFormat.format(new Date(Date.UTC(year, monthNumber - 1, 1)));
}
