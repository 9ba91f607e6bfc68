import { describe, expect, it } from 'vitest';
import { guessColumnMapping, mappingProblem, splitFullName, validateImport, type ContactColumn } from './contact-import';
import { parseCsvText } from './csv';

/** The mapped columns of a header, as `{ header: column }`, leaving out unmapped ones. */
function mappedColumns(header: string[]): Record<string, ContactColumn> {
  const mapping = guessColumnMapping(header);
  return Object.fromEntries(header.flatMap((name, i) => (mapping[i] ? [[name, mapping[i]]] : [])));
}

describe('guessing what each column holds', () => {
  it('maps our own export completely', () => {
    expect(guessColumnMapping(['email', 'firstName', 'lastName', 'company', 'phone', 'type'])).toEqual([
      'email',
      'firstName',
      'lastName',
      'company',
      'phone',
      'type',
    ]);
  });

  it('recognises a Google Contacts export, current and older', () => {
    const current = ['First Name', 'Middle Name', 'Last Name', 'Nickname', 'Organization Name', 'Organization Title', 'Labels'];
    const currentTail = ['E-mail 1 - Label', 'E-mail 1 - Value', 'E-mail 2 - Label', 'E-mail 2 - Value', 'Phone 1 - Label', 'Phone 1 - Value'];
    expect(mappedColumns([...current, ...currentTail])).toEqual({
      'First Name': 'firstName',
      'Last Name': 'lastName',
      'Organization Name': 'company',
      'E-mail 1 - Value': 'email',
      'Phone 1 - Value': 'phone',
    });

    const older = ['Name', 'Given Name', 'Additional Name', 'Family Name', 'E-mail 1 - Type', 'E-mail 1 - Value', 'Phone 1 - Type', 'Phone 1 - Value'];
    expect(mappedColumns([...older, 'Organization 1 - Type', 'Organization 1 - Name', 'Organization 1 - Title'])).toEqual({
      Name: 'fullName',
      'Given Name': 'firstName',
      'Family Name': 'lastName',
      'E-mail 1 - Value': 'email',
      'Phone 1 - Value': 'phone',
      'Organization 1 - Name': 'company',
    });
  });

  it('recognises an Outlook export, taking the first of its phone columns', () => {
    const outlook = ['Title', 'First Name', 'Middle Name', 'Last Name', 'Suffix', 'Company', 'Department', 'Job Title', "Assistant's Phone"];
    const outlookTail = ['Business Phone', 'Home Phone', 'Mobile Phone', 'E-mail Address', 'E-mail Type', 'E-mail Display Name', 'E-mail 2 Address'];
    expect(mappedColumns([...outlook, ...outlookTail])).toEqual({
      'First Name': 'firstName',
      'Last Name': 'lastName',
      Company: 'company',
      'Business Phone': 'phone',
      'E-mail Address': 'email',
    });
    expect(mappedColumns(['E-mail Address', 'Mobile Phone'])).toEqual({ 'E-mail Address': 'email', 'Mobile Phone': 'phone' });
  });

  it('recognises HubSpot and Salesforce exports', () => {
    expect(mappedColumns(['Record ID', 'First name', 'Last name', 'Email', 'Phone number', 'Company name', 'Contact owner'])).toEqual({
      'First name': 'firstName',
      'Last name': 'lastName',
      Email: 'email',
      'Phone number': 'phone',
      'Company name': 'company',
    });
    expect(mappedColumns(['First Name', 'Surname', 'Account Name', 'Email Address', 'Mobile'])).toEqual({
      'First Name': 'firstName',
      Surname: 'lastName',
      'Account Name': 'company',
      'Email Address': 'email',
      Mobile: 'phone',
    });
  });

  it('maps a single name column to the full name', () => {
    for (const header of ['Name', 'Full name', 'Display Name', 'full_name']) expect(guessColumnMapping([header])).toEqual(['fullName']);
  });

  it('ignores case, accents, spaces and punctuation, and maps each field from the first matching column only', () => {
    expect(guessColumnMapping(['\uFEFFE-MAIL', ' email_address ', 'Organisation', 'Société', 'Phone', 'Mobile', 'notes', ''])).toEqual([
      'email',
      null,
      'company',
      null,
      'phone',
      null,
      null,
      null,
    ]);
  });
});

describe('mappingProblem', () => {
  it('asks for an email column until one is chosen', () => {
    expect(mappingProblem(['firstName', null])).toBe('Choose the column that holds email addresses.');
    expect(mappingProblem([])).toBe('Choose the column that holds email addresses.');
    expect(mappingProblem([null, 'email'])).toBeUndefined();
  });
});

describe('validating rows', () => {
  const mapping: (ContactColumn | null)[] = ['email', 'firstName', 'lastName', 'company', 'phone', 'type'];

  it('gives each valid row the contact the API will store', () => {
    const preview = validateImport(
      [
        ['  Ada@Example.com ', ' Ada ', 'Lovelace', 'Analytical Engines', '+44 20 7946 0958', 'Person'],
        ['info@babbage.example', '', '', 'Babbage & Co', '', ' COMPANY '],
        ['grace@example.com', 'Grace', '', '', '', ''],
      ],
      mapping,
    );
    expect(preview.valid).toEqual([
      { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines', phone: '+44 20 7946 0958', type: 'person', language: '' },
      { email: 'info@babbage.example', firstName: '', lastName: '', company: 'Babbage & Co', phone: '', type: 'company', language: '' },
      { email: 'grace@example.com', firstName: 'Grace', lastName: '', company: '', phone: '', type: 'person', language: '' },
    ]);
    expect(preview.entries.map((entry) => [entry.row, entry.errors])).toEqual([
      [1, []],
      [2, []],
      [3, []],
    ]);
    expect(preview.entries[0]!.values).toEqual({
      email: '  Ada@Example.com ',
      firstName: ' Ada ',
      lastName: 'Lovelace',
      company: 'Analytical Engines',
      phone: '+44 20 7946 0958',
      type: 'Person',
    });
    expect(preview).toMatchObject({ invalidCount: 0, blankCount: 0 });
  });

  it('reports each invalid row with the API’s messages on the column at fault', () => {
    const preview = validateImport(
      [
        ['not-an-email', 'Ada', '', '', '', ''],
        ['', 'Nobody', '', '', '', ''],
        ['phone@example.com', '', '', '', 'call me', ''],
        ['type@example.com', '', '', '', '', 'robot'],
        ['long@example.com', 'x'.repeat(201), '', '', '', ''],
        ['many@example.com', '', '', 'Acme\nLtd', '555-CALL', 'org'],
      ],
      mapping,
    );
    expect(preview.entries.map((entry) => [entry.row, entry.contact, entry.errors])).toEqual([
      [1, null, [{ field: 'email', message: 'email must be a valid email address' }]],
      [2, null, [{ field: 'email', message: 'email is required' }]],
      [3, null, [{ field: 'phone', message: 'phone may only contain digits, spaces and + - ( ) .' }]],
      [4, null, [{ field: 'type', message: 'type must be one of: person, company' }]],
      [5, null, [{ field: 'firstName', message: 'firstName must be at most 200 characters' }]],
      [
        6,
        null,
        [
          { field: 'company', message: 'company must not contain control characters' },
          { field: 'phone', message: 'phone may only contain digits, spaces and + - ( ) .' },
          { field: 'type', message: 'type must be one of: person, company' },
        ],
      ],
    ]);
    expect(preview).toMatchObject({ valid: [], invalidCount: 6, blankCount: 0 });
  });

  it('keeps the first row of a repeated email and names it on every later one', () => {
    const preview = validateImport(
      [
        ['ada@example.com', 'Ada'],
        ['', ''],
        ['grace@example.com', 'Grace'],
        [' ADA@example.com ', 'Ada again'],
        ['ada@example.com', 'Ada, third'],
      ],
      ['email', 'firstName'],
    );
    expect(preview.valid.map((contact) => contact.firstName)).toEqual(['Ada', 'Grace']);
    expect(preview.entries.map((entry) => [entry.row, entry.errors.map((error) => error.message)])).toEqual([
      [1, []],
      [3, []],
      // Named as a spreadsheet numbers rows: the header is row 1, so data row 1 is row 2.
      [4, ['Same email as row 2']],
      [5, ['Same email as row 2']],
    ]);
    expect(preview).toMatchObject({ invalidCount: 2, blankCount: 1 });
  });

  it('lets the first row claim an email even when it has other errors, but not an invalid email', () => {
    const preview = validateImport(
      [
        ['ada@example.com', 'bad!'],
        ['ada@example.com', '1'],
        ['n/a', ''],
        ['n/a', ''],
      ],
      ['email', 'phone'],
    );
    expect(preview.entries.map((entry) => entry.errors.map((error) => error.message))).toEqual([
      ['phone may only contain digits, spaces and + - ( ) .'],
      ['Same email as row 2'],
      ['email must be a valid email address'],
      ['email must be a valid email address'],
    ]);
  });

  it('skips rows whose mapped cells are all empty, counting them, whatever unmapped columns hold', () => {
    const preview = validateImport([['', 'note only', '  '], ['ada@example.com', '', ''], [], ['', '', '\t']], ['email', null, 'firstName']);
    expect(preview.entries.map((entry) => entry.row)).toEqual([2]);
    expect(preview).toMatchObject({ invalidCount: 0, blankCount: 3 });
  });

  it('reads missing cells of a short row as empty and ignores extra ones', () => {
    const preview = validateImport([['ada@example.com'], ['grace@example.com', 'Grace', 'Hopper', 'extra']], ['email', 'firstName', 'lastName']);
    expect(preview.valid).toEqual([
      expect.objectContaining({ email: 'ada@example.com', firstName: '', lastName: '' }),
      expect.objectContaining({ email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' }),
    ]);
  });

  it('splits a full name on its last space, unless the row has a first or last name of its own', () => {
    const preview = validateImport(
      [
        ['a@example.com', 'Ada King Lovelace', '', ''],
        ['b@example.com', ' Cher ', '', ''],
        ['c@example.com', 'Grace Hopper', 'Amazing', ''],
        ['d@example.com', 'Grace Hopper', '', 'Hopper'],
        ['e@example.com', '', '', ''],
      ],
      ['email', 'fullName', 'firstName', 'lastName'],
    );
    expect(preview.valid.map((contact) => [contact.firstName, contact.lastName])).toEqual([
      ['Ada King', 'Lovelace'],
      ['Cher', ''],
      ['Amazing', ''],
      ['', 'Hopper'],
      ['', ''],
    ]);
  });

  it('reads a "Name" column written "Last, First" as last name first', () => {
    const [header, ...rows] = parseCsvText('Name,E-mail Address\r\n"Müller, Jürgen",juergen@example.de\r\n"van der Berg, Jane",jane@example.nl\r\n');
    const preview = validateImport(rows, guessColumnMapping(header!));
    expect(preview.valid.map((contact) => [contact.firstName, contact.lastName])).toEqual([
      ['Jürgen', 'Müller'],
      ['Jane', 'van der Berg'],
    ]);
  });

  it('blames the full-name column when a name split from it is refused', () => {
    const preview = validateImport([['a@example.com', `${'x'.repeat(201)} Lovelace`]], ['email', 'fullName']);
    expect(preview.entries[0]!.errors).toEqual([{ field: 'fullName', message: 'firstName must be at most 200 characters' }]);
  });

  it('removes the apostrophe our export puts before formula characters', () => {
    const preview = validateImport([["'+44 20 7946 0958", "'-Dash", "'=Acme", 'ada@example.com']], ['phone', 'firstName', 'company', 'email']);
    expect(preview.valid).toEqual([expect.objectContaining({ phone: '+44 20 7946 0958', firstName: '-Dash', company: '=Acme' })]);
    expect(preview.entries[0]!.values.phone).toBe('+44 20 7946 0958');
  });

  it('tells the file line of each row when given', () => {
    const preview = validateImport([['a@example.com'], [''], ['bad']], ['email'], [2, 4, 7]);
    expect(preview.entries.map((entry) => [entry.row, entry.line])).toEqual([
      [1, 2],
      [3, 7],
    ]);
    // Without the file's lines, each row is taken to be one line under the header.
    expect(validateImport([['a@example.com'], ['b@example.com']], ['email']).entries.map((entry) => entry.line)).toEqual([2, 3]);
  });

  it('handles 10,000 rows with repeats, errors and blanks', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => {
      if (i % 500 === 499) return ['', '', ''];
      if (i % 250 === 125) return [`person${i}@example.com`, `Person ${i}`, 'not a phone'];
      if (i % 100 === 50) return [`PERSON${i - 50}@example.com`, `Repeat of ${i - 50}`, ''];
      return [`person${i}@example.com`, `Person ${i}`, `+1 555 ${String(i).padStart(4, '0')}`];
    });
    const preview = validateImport(rows, ['email', 'fullName', 'phone']);

    expect(preview.blankCount).toBe(20);
    expect(preview.entries).toHaveLength(9_980);
    expect(preview.invalidCount).toBe(40 + 100);
    expect(preview.valid).toHaveLength(9_980 - 140);
    expect(new Set(preview.valid.map((contact) => contact.email)).size).toBe(preview.valid.length);
    expect(preview.entries.find((entry) => entry.row === 151)!.errors).toEqual([{ field: 'email', message: 'Same email as row 102' }]);
    expect(preview.entries.find((entry) => entry.row === 51)!.errors).toEqual([{ field: 'email', message: 'Same email as row 2' }]);
    expect(preview.valid.at(-1)).toEqual({
      email: 'person9998@example.com',
      firstName: 'Person',
      lastName: '9998',
      company: '',
      phone: '+1 555 9998',
      type: 'person',
      language: '',
    });
  });
});

describe('splitting a full name', () => {
  const split = (fullName: string) => Object.values(splitFullName(fullName));

  it('reads a comma as "Last, First"', () => {
    expect(split('Müller, Jürgen')).toEqual(['Jürgen', 'Müller']);
    expect(split(' Lovelace ,  Ada  King ')).toEqual(['Ada King', 'Lovelace']);
    expect(split('Berg, Dr. Jane')).toEqual(['Dr. Jane', 'Berg']);
    expect(split('Müller,')).toEqual(['Müller', '']);
  });

  it('splits "First Last" before the last word and the lower-case particles in front of it', () => {
    expect(split('Ada King Lovelace')).toEqual(['Ada King', 'Lovelace']);
    expect(split('Dr. Jane van der Berg')).toEqual(['Dr. Jane', 'van der Berg']);
    expect(split('Ludwig van Beethoven')).toEqual(['Ludwig', 'van Beethoven']);
    expect(split('Van Morrison')).toEqual(['Van', 'Morrison']);
    expect(split('Cher')).toEqual(['Cher', '']);
    expect(split('   ')).toEqual(['', '']);
  });

  it('keeps a suffix after a comma with the last name rather than reading it as a first name', () => {
    expect(split('Jane Doe, PhD')).toEqual(['Jane', 'Doe, PhD']);
    expect(split('King, Martin Luther, Jr.')).toEqual(['Martin Luther', 'King, Jr.']);
    expect(split('Ford, Henry, II')).toEqual(['Henry', 'Ford, II']);
  });
});
