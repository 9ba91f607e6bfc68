/* Plain values, free of zod, so the browser app and the server (mail) format alike. */

const byteUnits = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/**
 * Decimal units, as storage is sold (1 GB = 1,000,000,000 bytes), everywhere the product shows a
 * size: the dashboard, the recipient page, the uploader and mail.
 */
export function formatBytes(bytes: number, locale = 'en'): string {
  // Other languages write units as theirs do (French: 2,5 Mo; German: 919 Byte), by their CLDR data; English keeps KB.
  if (!/^en(-|$)/i.test(locale)) return localizedBytes(bytes, locale);
  if (bytes < 1000) return `${bytes.toLocaleString(locale)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < byteUnits.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toLocaleString(locale, { maximumFractionDigits: value < 10 ? 1 : 0 })} ${byteUnits[unit]}`;
}

const intlUnits = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

function localizedBytes(bytes: number, locale: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < intlUnits.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: intlUnits[unit],
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: unit > 0 && value < 10 ? 1 : 0,
  }).format(value);
}
