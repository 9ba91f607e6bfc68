import { useId, useMemo, useState } from 'react';
import type { IntlShape } from 'react-intl';
import { MAX_IMPORT_CONTACTS, type SyncContactsResponse } from '../../../../contract/contacts';
import { Button, buttonClass } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { ModalDialog } from '../../../components/modal-dialog';
import { labelClass } from '../../../components/text-field';
import { useIntl } from '../../../lib/intl';
import { useImportContacts } from '../api/import-contacts';
import { guessColumnMapping, mappingProblem, validateImport, type ContactColumn } from '../utils/contact-import';
import { readCsvFile, type CsvFile } from '../utils/csv';
import { CsvImportPreview } from './csv-import-preview';

interface ReadFile {
  name: string;
  csv: CsvFile;
}

/** "12 created, 3 updated, 40 unchanged, 1 skipped": what an import did, in one line. */
export function importSummary(result: SyncContactsResponse, skipped: number, intl: IntlShape): string {
  const counts = { created: result.created, updated: result.updated, unchanged: result.unchanged, skipped };
  return skipped > 0
    ? intl.formatMessage(
        {
          id: 'contacts.import.summaryWithSkipped',
          defaultMessage:
            'Imported contacts: {created, number} created, {updated, number} updated, {unchanged, number} unchanged, {skipped, number} skipped.',
        },
        counts,
      )
    : intl.formatMessage(
        { id: 'contacts.import.summary', defaultMessage: 'Imported contacts: {created, number} created, {updated, number} updated, {unchanged, number} unchanged.' },
        counts,
      );
}

/**
 * A CSV file in three steps: choose it (read in the browser, streamed, never uploaded as a file),
 * check the preview (columns mapped, every row's errors shown before anything is written), then
 * import the valid rows in one transaction. Rows are matched by email: known addresses are updated,
 * so importing the same file twice changes nothing.
 */
export function ImportContactsDialog({ onClose, onImported }: { onClose: () => void; onImported: (summary: string) => void }) {
  const intl = useIntl();
  const id = useId();
  const [file, setFile] = useState<ReadFile | null>(null);
  const [reading, setReading] = useState(false);
  const [readError, setReadError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<(ContactColumn | null)[]>([]);
  const [result, setResult] = useState<{ response: SyncContactsResponse; skipped: number } | null>(null);
  const importContacts = useImportContacts();

  const preview = useMemo(() => (file ? validateImport(file.csv.rows, mapping, file.csv.rowLines, intl) : null), [file, mapping, intl]);

  async function choose(chosen: File | undefined) {
    setFile(null);
    setReadError(null);
    setResult(null);
    importContacts.reset();
    if (!chosen) return;
    setReading(true);
    try {
      const csv = await readCsvFile(chosen, { maxRows: MAX_IMPORT_CONTACTS });
      if (csv.header.length === 0) {
        setReadError(intl.formatMessage({ id: 'contacts.import.emptyFile', defaultMessage: 'This file is empty.' }));
        return;
      }
      setMapping(guessColumnMapping(csv.header));
      setFile({ name: chosen.name, csv });
    } catch {
      setReadError(
        intl.formatMessage({
          id: 'contacts.import.unreadable',
          defaultMessage: 'This file could not be read. Choose a CSV file (comma- or semicolon-separated text).',
        }),
      );
    } finally {
      setReading(false);
    }
  }

  function runImport() {
    if (!preview) return;
    importContacts.mutate(preview.valid, {
      onSuccess: (response) => {
        setResult({ response, skipped: preview.invalidCount });
        onImported(importSummary(response, preview.invalidCount, intl));
      },
    });
  }

  const ready = preview && !mappingProblem(mapping, intl) ? preview.valid.length : 0;

  return (
    <ModalDialog
      title={intl.formatMessage({ id: 'contacts.import.title', defaultMessage: 'Import contacts' })}
      description={intl.formatMessage({
        id: 'contacts.import.description',
        defaultMessage: 'From a CSV file with a header row, such as an export from Google Contacts, Outlook or a CRM.',
      })}
      onClose={onClose}
      busy={importContacts.isPending}
      size="wide"
    >
      {result ? (
        <div className="space-y-4">
          <div
            role="status"
            className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-100"
          >
            <p className="font-medium">{intl.formatMessage({ id: 'contacts.import.finished', defaultMessage: 'Import finished.' })}</p>
            <ul className="mt-1">
              <li>
                {intl.formatMessage(
                  { id: 'contacts.import.created', defaultMessage: '{count, plural, one {# contact created} other {# contacts created}}' },
                  { count: result.response.created },
                )}
              </li>
              <li>
                {intl.formatMessage(
                  { id: 'contacts.import.updated', defaultMessage: '{count, plural, one {# contact updated} other {# contacts updated}}' },
                  { count: result.response.updated },
                )}
              </li>
              <li>
                {intl.formatMessage(
                  { id: 'contacts.import.unchanged', defaultMessage: '{count, plural, one {# contact already up to date} other {# contacts already up to date}}' },
                  { count: result.response.unchanged },
                )}
              </li>
              {result.skipped > 0 ? (
                <li>
                  {intl.formatMessage(
                    { id: 'contacts.import.skipped', defaultMessage: '{count, plural, one {# row with errors skipped} other {# rows with errors skipped}}' },
                    { count: result.skipped },
                  )}
                </li>
              ) : null}
            </ul>
          </div>
          <div className="flex justify-end">
            <Button onClick={onClose}>{intl.formatMessage({ id: 'contacts.import.done', defaultMessage: 'Done' })}</Button>
          </div>
        </div>
      ) : (
        <div className="space-y-5">
          <div>
            <label htmlFor={`${id}-file`} className={labelClass}>
              {intl.formatMessage({ id: 'contacts.import.fileLabel', defaultMessage: 'CSV file' })}
            </label>
            {/* The native control, kept for keyboards and screen readers, with a button-styled label in place of the browser's own look. */}
            <div className="mt-1 flex flex-wrap items-center gap-3">
              <input
                id={`${id}-file`}
                type="file"
                accept=".csv,text/csv"
                aria-describedby={`${id}-file-hint`}
                disabled={importContacts.isPending}
                onChange={(event) => void choose(event.target.files?.[0])}
                className="peer sr-only"
              />
              <label
                htmlFor={`${id}-file`}
                className={buttonClass(
                  'secondary',
                  'cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-indigo-600',
                )}
              >
                {file
                  ? intl.formatMessage({ id: 'contacts.import.chooseAnother', defaultMessage: 'Choose another file' })
                  : intl.formatMessage({ id: 'contacts.import.choose', defaultMessage: 'Choose a file' })}
              </label>
              <span className="min-w-0 text-sm break-all text-zinc-700 dark:text-zinc-300">
                {file?.name ?? intl.formatMessage({ id: 'contacts.import.noFile', defaultMessage: 'No file chosen' })}
              </span>
            </div>
            <p id={`${id}-file-hint`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
              {intl.formatMessage(
                {
                  id: 'contacts.import.fileHint',
                  defaultMessage:
                    'An email column is required; names, company, phone and type (person or company) are optional. Up to {max, number} rows. Contacts are matched by email: known addresses are updated, not repeated.',
                },
                { max: MAX_IMPORT_CONTACTS },
              )}
            </p>
            {reading ? (
              <p role="status" className="mt-2 text-sm">
                {intl.formatMessage({ id: 'contacts.import.reading', defaultMessage: 'Reading the file…' })}
              </p>
            ) : null}
            {readError ? (
              <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
                {readError}
              </p>
            ) : null}
            {file?.csv.truncated ? (
              <p role="alert" className="mt-2 text-sm text-amber-800 dark:text-amber-300">
                {intl.formatMessage(
                  { id: 'contacts.import.truncated', defaultMessage: 'This file has more than {max, number} rows: only the first {max, number} are imported.' },
                  { max: MAX_IMPORT_CONTACTS },
                )}
              </p>
            ) : null}
            {file?.csv.unterminatedQuote ? (
              <p className="mt-2 text-sm text-amber-800 dark:text-amber-300">
                {intl.formatMessage({ id: 'contacts.import.unterminatedQuote', defaultMessage: 'The file ends inside a quoted value: check its last row below.' })}
              </p>
            ) : null}
          </div>

          {file && preview ? (
            <CsvImportPreview header={file.csv.header} firstRow={file.csv.rows[0]} mapping={mapping} onMappingChange={setMapping} preview={preview} />
          ) : null}

          <FormError error={importContacts.error} />
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onClick={onClose} disabled={importContacts.isPending}>
              {intl.formatMessage({ id: 'contacts.import.cancel', defaultMessage: 'Cancel' })}
            </Button>
            <Button onClick={runImport} disabled={ready === 0 || importContacts.isPending}>
              {importContacts.isPending
                ? intl.formatMessage({ id: 'contacts.import.importing', defaultMessage: 'Importing…' })
                : ready > 0
                  ? intl.formatMessage({ id: 'contacts.import.importCount', defaultMessage: 'Import {count, plural, one {# contact} other {# contacts}}' }, { count: ready })
                  : intl.formatMessage({ id: 'contacts.import.import', defaultMessage: 'Import' })}
            </Button>
          </div>
        </div>
      )}
    </ModalDialog>
  );
}
