import { describe, expect, it } from 'vitest';
import type { Contact, ContactInput } from '../../../../contract/contacts';
import { contactsCsvFileName, contactsToCsv } from './contact-export';
import { guessColumnMapping, validateImport } from './contact-import';
import { readCsvFile } from './csv';
import { contactFixture } from '../../../test/fixtures';

const contact = contactFixture;

const asInput = ({ email, firstName, lastName, company, phone, type, language }: Contact): ContactInput => ({
  email,
  firstName,
  lastName,
  company,
  phone,
  type: type as ContactInput['type'],
  language: language as ContactInput['language'],
});

/** What the contacts page does with a chosen file: read it, guess the columns, validate. */
async function importCsv(text: string) {
  const file = await readCsvFile(new Blob([text], { type: 'text/csv' }), { maxRows: 10_000 });
  return { file, preview: validateImport(file.rows, guessColumnMapping(file.header), file.rowLines) };
}

describe('contactsToCsv', () => {
  it('writes a byte order mark, our header and one CRLF-ended row per contact', () => {
    const csv = contactsToCsv([
      contact('ada@example.com', { firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines, Ltd', phone: '020 7946 0958' }),
      contact('info@acme.example', { company: 'Acme "Rockets"', type: 'company', language: 'de' }),
    ]);
    expect(csv).toBe(
      '\uFEFFemail,firstName,lastName,company,phone,type,language\r\n' +
        'ada@example.com,Ada,Lovelace,"Analytical Engines, Ltd",020 7946 0958,person,\r\n' +
        'info@acme.example,,,"Acme ""Rockets""",,company,de\r\n',
    );
    expect(contactsToCsv([])).toBe('\uFEFFemail,firstName,lastName,company,phone,type,language\r\n');
  });

  it('puts an apostrophe before values a spreadsheet would run as formulas', () => {
    const csv = contactsToCsv([contact('x@example.com', { firstName: '=SUM(A1)', lastName: '-5', company: '@home', phone: '+44 20 7946 0958' })]);
    expect(csv.split('\r\n')[1]).toBe("x@example.com,'=SUM(A1),'-5,'@home,'+44 20 7946 0958,person,");
  });
});

describe('re-importing our own export', () => {
  it('gives back exactly the same contacts', async () => {
    const contacts = [
      contact('ada@example.com', { firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines, Ltd', phone: '+44 20 7946 0958' }),
      contact('jose@example.es', { firstName: 'José', lastName: 'Núñez', company: 'Café "El Sol"; Sevilla', phone: '(0) 954-123.456' }),
      contact('li@example.cn', { firstName: '李', lastName: '小龙', company: '🦊 Fox & Co' }),
      contact('formula@example.com', { firstName: "=cmd|'/c calc'!A1", lastName: '-5', company: '@home', phone: '-1' }),
      contact('apostrophe@example.com', { firstName: "D'Arcy", lastName: "'quoted'", company: '"""' }),
      contact('info@acme.example', { company: 'Acme', type: 'company', language: 'pt-BR' }),
      contact('blank@example.com'),
    ];
    const { file, preview } = await importCsv(contactsToCsv(contacts));
    expect(guessColumnMapping(file.header)).toEqual(['email', 'firstName', 'lastName', 'company', 'phone', 'type', 'language']);
    expect(preview.valid).toEqual(contacts.map(asInput));
    expect(preview).toMatchObject({ invalidCount: 0, blankCount: 0 });
  });

  it('refuses a line break in a company as the API would, without disturbing the other rows', async () => {
    const contacts = [
      contact('a@example.com', { company: 'Two\nLines' }),
      contact('b@example.com', { company: 'Carriage\r\nReturn' }),
      contact('c@example.com', { company: 'One line' }),
    ];
    const { preview } = await importCsv(contactsToCsv(contacts));
    expect(preview.entries.map((entry) => [entry.row, entry.line, entry.errors])).toEqual([
      [1, 2, [{ field: 'company', message: 'company must not contain control characters' }]],
      [2, 4, [{ field: 'company', message: 'company must not contain control characters' }]],
      [3, 6, []],
    ]);
    expect(preview.valid).toEqual([asInput(contacts[2]!)]);
  });
});

describe('contactsCsvFileName', () => {
  const day = new Date(2026, 10, 25, 23, 30);

  it('names the file after the workspace and the local date', () => {
    expect(contactsCsvFileName('Analytical Engines', day)).toBe('contacts-analytical-engines-2026-11-25.csv');
    expect(contactsCsvFileName('  Café Ñandú & Co. / Berlin ', new Date(2027, 0, 5))).toBe('contacts-cafe-nandu-co-berlin-2027-01-05.csv');
  });

  it('keeps only safe characters and a bounded length', () => {
    expect(contactsCsvFileName('../../etc/passwd', day)).toBe('contacts-etc-passwd-2026-11-25.csv');
    expect(contactsCsvFileName('李小龙', day)).toBe('contacts-2026-11-25.csv');
    expect(contactsCsvFileName('', day)).toBe('contacts-2026-11-25.csv');
    const long = contactsCsvFileName('word '.repeat(40), day);
    expect(long).toMatch(/^contacts-[a-z0-9]+(-[a-z0-9]+)*-2026-11-25\.csv$/);
    expect(long.length).toBeLessThanOrEqual(90);
  });
});
