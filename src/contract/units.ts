/* Plain values, free of zod, so the browser app and the server (mail) format alike. */

const byteUnits = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/**
 * Decimal units, as storage is sold (1 GB = 1,000,000,000 bytes), everywhere the product shows a
 * size: the dashboard, the recipient page, the uploader and mail.
 */
export function formatBytes(bytes: number, locale = 'en'): string {
  if (bytes < 1000) return `${bytes.toLocaleString(locale)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < byteUnits.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toLocaleString(locale, { maximumFractionDigits: value < 10 ? 1 : 0 })} ${byteUnits[unit]}`;
}
