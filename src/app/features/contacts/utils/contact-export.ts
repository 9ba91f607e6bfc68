import type { Contact } from '../../../../contract/contacts';
import { toCsv } from './csv';

/** Named as the API names the fields, so that importing our own export maps every column by itself. */
export const contactExportHeader = ['email', 'firstName', 'lastName', 'company', 'phone', 'type', 'language'] as const;

/**
 * Prefixed with a UTF-8 byte order mark. Without one, Excel on Windows (where most exports are opened
 * by a double click) reads the file in the local code page and garbles every non-ASCII name; Numbers,
 * LibreOffice and Google Sheets accept the mark, and `readCsvFile` drops it. The cost is a stray
 * U+FEFF at the start for tools that read bytes naively.
 */
export function contactsToCsv(contacts: Contact[]): string {
  const rows = contacts.map((contact) => contactExportHeader.map((field) => contact[field]));
  return '\uFEFF' + toCsv([[...contactExportHeader], ...rows]);
}

/** "Analytical Engines Ltd", 25 Nov 2026 → `contacts-analytical-engines-ltd-2026-11-25.csv`, on the owner's local date. */
export function contactsCsvFileName(workspaceName: string, date: Date): string {
  const slug = workspaceName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '');
  const day = [date.getFullYear(), date.getMonth() + 1, date.getDate()].map((part) => String(part).padStart(2, '0')).join('-');
  return slug ? `contacts-${slug}-${day}.csv` : `contacts-${day}.csv`;
}
