import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { guessColumnMapping, validateImport, type ContactColumn } from '../utils/contact-import';
import { parseCsvText } from '../utils/csv';
import { CsvImportPreview } from './csv-import-preview';

/** The preview as the dialog uses it: the mapping is state the owner changes, the rows are checked again on each change. */
function Preview({ text }: { text: string }) {
  const [header, ...rows] = parseCsvText(text);
  const [mapping, setMapping] = useState<(ContactColumn | null)[]>(guessColumnMapping(header!));
  return <CsvImportPreview header={header!} firstRow={rows[0]} mapping={mapping} onMappingChange={setMapping} preview={validateImport(rows, mapping)} />;
}

const outlookExport = [
  'First Name,Last Name,Company,E-mail Address,Mobile Phone,Notes',
  'Ada,Lovelace,Analytical Engines,ada@example.com,+44 20 7946 0958,met at the RI',
  'Grace,Hopper,US Navy,grace-at-navy,,',
  ',,,,,',
  'Katherine,Johnson,NASA,kj@nasa.test,555 (0100) x12,',
  'Ada,Again,,ADA@example.com,,',
].join('\r\n');

describe('CsvImportPreview', () => {
  it('maps the columns of a known export by itself and leaves unknown ones out', () => {
    render(<Preview text={outlookExport} />);
    expect(screen.getByRole('combobox', { name: 'Import “E-mail Address” as' })).toHaveDisplayValue('Email');
    expect(screen.getByRole('combobox', { name: 'Import “First Name” as' })).toHaveDisplayValue('First name');
    expect(screen.getByRole('combobox', { name: 'Import “Mobile Phone” as' })).toHaveDisplayValue('Phone');
    expect(screen.getByRole('combobox', { name: 'Import “Notes” as' })).toHaveDisplayValue('Don’t import');
  });

  it("shows each bad row's line and reason before anything is written, and counts the rest", () => {
    render(<Preview text={outlookExport} />);
    expect(screen.getByText(/contact is ready|contacts are ready/).textContent).toBe('1 contact is ready to import.');
    const rows = within(screen.getByRole('group', { name: 'Rows with errors' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      // Numbered as a spreadsheet numbers them: the header is row 1.
      '3grace-at-navyEmail: email must be a valid email address',
      '5kj@nasa.testPhone: phone may only contain digits, spaces and + - ( ) .',
      '6ADA@example.comEmail: Same email as row 2',
    ]);
    expect(screen.getByText(/rows have/).closest('li')).toHaveTextContent('3 rows have errors and will be skipped.');
    expect(screen.getByText(/empty row is ignored/)).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Contacts to import' })).getByText('Ada Lovelace')).toBeInTheDocument();
  });

  it('asks for the email column when none is mapped, and checks the rows again when the owner maps one', async () => {
    const user = userEvent.setup();
    render(<Preview text={'Who,Where\nada@example.com,Analytical Engines\nbad,Nowhere'} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Choose the column that holds email addresses.');
    expect(screen.queryByRole('region', { name: 'Rows' })).not.toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Import “Who” as' }), 'Email');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Import “Where” as' }), 'Company');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText(/ready to import/).textContent).toBe('1 contact is ready to import.');

    // A field comes from one column: mapping email elsewhere frees the first column.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Import “Where” as' }), 'Email');
    expect(screen.getByRole('combobox', { name: 'Import “Who” as' })).toHaveDisplayValue('Don’t import');
  });

  it('renders names from the file as text, never as markup', () => {
    render(<Preview text={'email,firstName\nx@example.com,<img src=x onerror="alert(1)">'} />);
    expect(screen.getAllByText('<img src=x onerror="alert(1)">').length).toBeGreaterThan(0);
    expect(document.querySelector('img')).toBeNull();
  });
});
