// Configures zod before its first parse (see the file).
import '../../../lib/zod-config';
import { defineMessages, type IntlShape, type MessageDescriptor } from 'react-intl';
import type { z } from 'zod';
import { ContactInputSchema, type ContactInput } from '../../../../contract/contacts';
import { localeOfTag } from '../../../../contract/locales';
import { currentIntl } from '../../../lib/intl';
import { restoreFormula } from './csv';

/** What a CSV column can hold. `fullName` is not a contact field: it is split into first and last name. */
export const contactColumns = ['email', 'firstName', 'lastName', 'fullName', 'company', 'phone', 'type', 'language'] as const;
export type ContactColumn = (typeof contactColumns)[number];

/** What each column can be imported as, in the preview's choice of a column's field. */
export const contactColumnLabels: Record<ContactColumn, MessageDescriptor> = defineMessages({
  email: { id: 'contacts.import.column.email', defaultMessage: 'Email' },
  firstName: { id: 'contacts.import.column.firstName', defaultMessage: 'First name' },
  lastName: { id: 'contacts.import.column.lastName', defaultMessage: 'Last name' },
  fullName: { id: 'contacts.import.column.fullName', defaultMessage: 'Full name' },
  company: { id: 'contacts.import.column.company', defaultMessage: 'Company' },
  phone: { id: 'contacts.import.column.phone', defaultMessage: 'Phone' },
  type: { id: 'contacts.import.column.type', defaultMessage: 'Type (person or company)' },
  language: { id: 'contacts.import.column.language', defaultMessage: 'Language of their mail' },
});

/** A column's name where an error is blamed on it: its label, without what the choice explains ("Type", not "Type (person or company)"). */
export function contactColumnName(column: ContactColumn, intl: IntlShape = currentIntl()): string {
  if (column === 'type') return intl.formatMessage({ id: 'contacts.import.column.typeShort', defaultMessage: 'Type' });
  return intl.formatMessage(contactColumnLabels[column]);
}

/** A contact as the API will store it: trimmed, email lower-cased, defaults filled in. Assignable to `ContactInput`. */
export type ImportedContact = z.output<typeof ContactInputSchema>;

/**
 * Header names as the common address books export them (ours, Google Contacts, Outlook, HubSpot,
 * Salesforce), compared after `headerKey`, so "E-mail Address", "email_address" and "EmailAddress" are one. Home phone is
 * left out on purpose: Outlook.com lists it before Business and Mobile Phone, and a work address book wants those.
 */
const headerAliases: Record<ContactColumn, string[]> = {
  email: ['email', 'emailaddress', 'email1value', 'email1', 'primaryemail', 'emailaddress1', 'mail'],
  firstName: ['firstname', 'givenname', 'forename', 'first'],
  lastName: ['lastname', 'familyname', 'surname', 'last'],
  fullName: ['name', 'fullname', 'displayname', 'contactname'],
  company: ['company', 'companyname', 'organization', 'organisation', 'organizationname', 'organisationname', 'organization1name', 'accountname'],
  phone: [
    'phone',
    'phonenumber',
    'phone1value',
    'mobile',
    'mobilephone',
    'mobilenumber',
    'mobilephonenumber',
    'businessphone',
    'workphone',
    'primaryphone',
    'telephone',
    'tel',
  ],
  type: ['type', 'contacttype'],
  language: ['language', 'lang', 'locale', 'preferredlanguage'],
};

const columnByHeaderKey = new Map<string, ContactColumn>(
  contactColumns.flatMap((column) => headerAliases[column].map((alias) => [alias, column] as [string, ContactColumn])),
);

/** Case, accents, spaces and punctuation ignored: "E-mail 1 - Value" → "email1value". */
function headerKey(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/**
 * A first guess at what each column holds, for the owner to correct. Each field comes from at most one
 * column: the leftmost that matches (Outlook has "Business Phone" before "Mobile Phone"); later ones get null.
 */
export function guessColumnMapping(header: string[]): (ContactColumn | null)[] {
  const taken = new Set<ContactColumn>();
  return header.map((name) => {
    const column = columnByHeaderKey.get(headerKey(name));
    if (column === undefined || taken.has(column)) return null;
    taken.add(column);
    return column;
  });
}

/** Why the mapping cannot be imported yet, or undefined when it can. */
export function mappingProblem(mapping: (ContactColumn | null)[], intl: IntlShape = currentIntl()): string | undefined {
  return mapping.includes('email')
    ? undefined
    : intl.formatMessage({ id: 'contacts.import.emailColumnMissing', defaultMessage: 'Choose the column that holds email addresses.' });
}

export interface ImportError {
  field: ContactColumn;
  message: string;
}

export interface ImportEntry {
  /** 1-based among the data rows (the header is not counted, blank rows are). */
  row: number;
  /**
   * The row's number as a spreadsheet shows the file (the header is 1): the line it starts on when
   * the caller passed `rowLines`, else `row + 1`. The number the preview shows and the one
   * "Same email as row N" names.
   */
  line: number;
  /** The cells of the mapped columns, as in the file except for a formula-neutralising apostrophe removed. */
  values: Partial<Record<ContactColumn, string>>;
  /** What the API will store, when the row is valid; null when `errors` is not empty. */
  contact: ImportedContact | null;
  errors: ImportError[];
}

export interface ImportPreview {
  /** Every non-blank row, valid or not, in file order. */
  entries: ImportEntry[];
  /** The valid rows' contacts, ready for `syncContacts` (which takes at most MAX_SYNC_CONTACTS per call). */
  valid: ImportedContact[];
  invalidCount: number;
  /** Rows whose mapped cells are all empty: skipped without an error. */
  blankCount: number;
}

type ContactField = keyof ContactInput;
const contactFields: ReadonlySet<PropertyKey> = new Set<ContactField>(['email', 'firstName', 'lastName', 'company', 'phone', 'type', 'language']);

function isContactField(key: PropertyKey | undefined): key is ContactField {
  return key !== undefined && contactFields.has(key);
}

/** Which column to blame for a field the schema refused: names split from a full name point at that column. */
function columnOfField(field: ContactField, namesFromFullName: boolean): ContactColumn {
  if (namesFromFullName && (field === 'firstName' || field === 'lastName')) return 'fullName';
  return field;
}

/**
 * Lower-case words that belong to the surname that follows them ("van der Berg", "da Vinci", "von Trapp").
 * Only lower-case ones count: a capitalised "Van" or "De" is as often a given name.
 */
const SURNAME_PARTICLES = new Set(['van', 'von', 'vom', 'zu', 'zum', 'zur', 'der', 'den', 'ter', 'ten', 'te', 'de', 'del', 'della', 'dei', 'degli', 'di', 'da', 'das', 'dos', 'do', 'du', 'des', 'la', 'le', 'lo', 'al', 'el', 'bin', 'ibn', 'ben', 'af', 'av']);

/**
 * What may follow a name after a comma without being a first name: "Jane Doe, PhD", "King, Martin Luther, Jr.".
 * Short words that are also given names ("Ma", "Xi", "V") are left out on purpose.
 */
const NAME_SUFFIX = /^(jr|sr|ii|iii|iv|phd|md|dds|dvm|esq|mba|msc|bsc|cpa|llm|obe|mbe|cbe|kbe)\.?$/i;

/**
 * A full name as address books write it, in first and last name:
 * - with a comma, "Last, First" ("Müller, Jürgen" → first "Jürgen", last "Müller"), the way Outlook and
 *   many CRMs file names;
 * - without one, "First Last", split before the last word together with the lower-case particles in
 *   front of it ("Dr. Jane van der Berg" → first "Dr. Jane", last "van der Berg"); one word is a first name.
 * A suffix after a comma ("Jr.", "III", "PhD") is not a first name: it stays with the last name, after a
 * comma as written ("King, Martin Luther, Jr." → first "Martin Luther", last "King, Jr.").
 */
export function splitFullName(fullName: string): { firstName: string; lastName: string } {
  const parts = fullName
    .split(',')
    .map((part) => part.trim().replace(/\s+/g, ' '))
    .filter(Boolean);
  const suffixes: string[] = [];
  while (parts.length > 1 && NAME_SUFFIX.test(parts[parts.length - 1]!)) suffixes.unshift(parts.pop()!);
  const withSuffixes = (lastName: string) => [lastName, ...suffixes].filter(Boolean).join(', ');

  if (parts.length > 1) {
    const [lastName, ...firstNames] = parts;
    return { firstName: firstNames.join(' '), lastName: withSuffixes(lastName!) };
  }
  const words = (parts[0] ?? '').split(' ').filter(Boolean);
  if (words.length <= 1) return { firstName: words[0] ?? '', lastName: withSuffixes('') };
  let lastNameStart = words.length - 1;
  while (lastNameStart > 1 && SURNAME_PARTICLES.has(words[lastNameStart - 1]!)) lastNameStart--;
  return { firstName: words.slice(0, lastNameStart).join(' '), lastName: withSuffixes(words.slice(lastNameStart).join(' ')) };
}

/**
 * Checks every row against the same schema the API uses, so the preview accepts exactly what the
 * sync call will. Linear in the number of rows: emails already seen are kept in a map.
 *
 * - Names: a full-name column is split by `splitFullName` ("Last, First" or "First Last"), unless the row
 *   has a first or last name of its own in mapped columns, which then win.
 * - Type: case-insensitive; empty means the API's default (person).
 * - A repeated email (compared as the API compares them: trimmed, lower-cased) keeps its first row;
 *   each later row gets "Same email as row N", even when the first row has other errors, so that the
 *   row it names is always one the owner can see in the preview.
 */
export function validateImport(rows: string[][], mapping: (ContactColumn | null)[], rowLines?: number[], intl: IntlShape = currentIntl()): ImportPreview {
  const entries: ImportEntry[] = [];
  const valid: ImportedContact[] = [];
  const firstRowByEmail = new Map<string, number>();
  let invalidCount = 0;
  let blankCount = 0;

  rows.forEach((cells, index) => {
    const row = index + 1;
    const line = rowLines?.[index] ?? row + 1;
    const values: Partial<Record<ContactColumn, string>> = {};
    let isBlank = true;
    mapping.forEach((column, cellIndex) => {
      if (column === null) return;
      const value = restoreFormula(cells[cellIndex] ?? '');
      values[column] = value;
      if (value.trim() !== '') isBlank = false;
    });
    if (isBlank) {
      blankCount++;
      return;
    }

    const ownNames = (values.firstName ?? '').trim() !== '' || (values.lastName ?? '').trim() !== '';
    const namesFromFullName = !ownNames && values.fullName !== undefined;
    const names = namesFromFullName ? splitFullName(values.fullName ?? '') : { firstName: values.firstName, lastName: values.lastName };
    const type = values.type?.trim().toLowerCase();
    const language = values.language?.trim();
    const input: Record<ContactField, string | undefined> = {
      // Absent rather than "" so an empty cell reads "email is required", not "must be a valid email address".
      email: values.email?.trim() ? values.email : undefined,
      firstName: names.firstName,
      lastName: names.lastName,
      company: values.company,
      phone: values.phone,
      type: type ? type : undefined,
      // A language as address books write it ("de-DE", "pt-PT") becomes the one we write; anything else is refused by name.
      language: language ? (localeOfTag(language) ?? language) : undefined,
    };

    const result = ContactInputSchema.safeParse(input);
    const errors: ImportError[] = result.success
      ? []
      : result.error.issues.map((issue) => {
          const field = issue.path[0];
          // Every rule of ContactInputSchema is on a field; 'email' is only a fallback should one ever be on the whole object.
          return { field: isContactField(field) ? columnOfField(field, namesFromFullName) : 'email', message: issue.message };
        });

    if (!errors.some((error) => error.field === 'email') && input.email !== undefined) {
      const email = input.email.trim().toLowerCase();
      const firstRow = firstRowByEmail.get(email);
      if (firstRow === undefined) firstRowByEmail.set(email, line);
      // The row's number as written in the preview's Row column: as a spreadsheet shows it, not as a count.
      else errors.push({ field: 'email', message: intl.formatMessage({ id: 'contacts.import.sameEmailAs', defaultMessage: 'Same email as row {row}' }, { row: firstRow }) });
    }

    const contact = result.success && errors.length === 0 ? result.data : null;
    if (contact) valid.push(contact);
    else invalidCount++;
    entries.push({ row, line, values, contact, errors });
  });

  return { entries, valid, invalidCount, blankCount };
}
