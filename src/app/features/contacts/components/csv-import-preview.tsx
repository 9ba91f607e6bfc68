import { useId } from 'react';
import { inputClass } from '../../../components/text-field';
import { formatInteger, plural } from '../../../lib/format';
import { contactName } from '../../../lib/contacts';
import { contactColumnLabels, contactColumns, mappingProblem, type ContactColumn, type ImportPreview } from '../utils/contact-import';

/** How many rows with errors are listed; the rest are counted. A file with thousands of bad rows is the wrong file. */
const LISTED_ERRORS = 100;
/** How many ready contacts are shown as a sample of what will be written. */
const SAMPLE_SIZE = 5;

const cellClass = 'px-3 py-2 align-top';
const headClass = 'px-3 py-2 text-left text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400';

/**
 * What an import will do, before it does anything: which column becomes which field (changeable),
 * how many rows are ready, and each row that will be skipped with the reason, by its row number.
 */
export function CsvImportPreview({
  header,
  firstRow,
  mapping,
  onMappingChange,
  preview,
}: {
  header: string[];
  /** The first data row, to show an example of each column. */
  firstRow: string[] | undefined;
  mapping: (ContactColumn | null)[];
  onMappingChange: (mapping: (ContactColumn | null)[]) => void;
  preview: ImportPreview;
}) {
  const id = useId();
  const problem = mappingProblem(mapping);
  const withErrors = preview.entries.filter((entry) => entry.errors.length > 0);

  function choose(index: number, column: ContactColumn | null) {
    // A field comes from one column: choosing it here frees it wherever it was before.
    onMappingChange(mapping.map((current, i) => (i === index ? column : current === column ? null : current)));
  }

  return (
    <div className="space-y-5">
      <section aria-labelledby={`${id}-columns`}>
        <h3 id={`${id}-columns`} className="text-sm font-semibold">
          Columns
        </h3>
        <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
          Choose what each column of the file holds. Columns set to “Don’t import” are left out.
        </p>
        <div className="mt-2 overflow-x-auto rounded-md border border-zinc-200 dark:border-zinc-800">
          <table className="w-full text-sm">
            <thead className="bg-zinc-50 dark:bg-zinc-900/60">
              <tr>
                <th scope="col" className={headClass}>
                  Column in file
                </th>
                <th scope="col" className={`${headClass} hidden sm:table-cell`}>
                  Example
                </th>
                <th scope="col" className={headClass}>
                  Import as
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {header.map((name, index) => (
                <tr key={index}>
                  <th scope="row" className={`${cellClass} max-w-40 truncate text-left font-medium`} title={name}>
                    {name || <span className="text-zinc-600 dark:text-zinc-400">Column {index + 1}</span>}
                  </th>
                  <td className={`${cellClass} hidden max-w-48 truncate text-zinc-600 sm:table-cell dark:text-zinc-400`} title={firstRow?.[index]}>
                    {firstRow?.[index] ?? ''}
                  </td>
                  <td className={cellClass}>
                    <select
                      aria-label={`Import “${name || `Column ${index + 1}`}” as`}
                      value={mapping[index] ?? ''}
                      onChange={(event) => choose(index, event.target.value === '' ? null : (event.target.value as ContactColumn))}
                      className={`${inputClass} py-1.5`}
                    >
                      <option value="">Don’t import</option>
                      {contactColumns.map((column) => (
                        <option key={column} value={column}>
                          {contactColumnLabels[column]}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {problem ? (
          <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
            {problem}.
          </p>
        ) : null}
      </section>

      {problem ? null : (
        <>
          <section aria-labelledby={`${id}-summary`}>
            <h3 id={`${id}-summary`} className="text-sm font-semibold">
              Rows
            </h3>
            <ul className="mt-1 space-y-0.5 text-sm">
              <li>
                <span className="font-semibold text-emerald-700 dark:text-emerald-400">{formatInteger(preview.valid.length)}</span>{' '}
                {preview.valid.length === 1 ? 'contact is' : 'contacts are'} ready to import.
              </li>
              {preview.invalidCount > 0 ? (
                <li>
                  <span className="font-semibold text-red-700 dark:text-red-400">{plural(preview.invalidCount, 'row has', 'rows have')}</span> errors and will
                  be skipped.
                </li>
              ) : null}
              {preview.blankCount > 0 ? (
                <li className="text-zinc-600 dark:text-zinc-400">{plural(preview.blankCount, 'empty row is', 'empty rows are')} ignored.</li>
              ) : null}
            </ul>
          </section>

          {withErrors.length > 0 ? (
            <section aria-labelledby={`${id}-errors`}>
              <h3 id={`${id}-errors`} className="text-sm font-semibold">
                Rows with errors
              </h3>
              <div
                className="mt-2 max-h-64 overflow-auto rounded-md border border-red-200 dark:border-red-900"
                tabIndex={0}
                role="group"
                aria-labelledby={`${id}-errors`}
              >
                <table className="w-full text-sm">
                  <thead className="sticky top-0 bg-red-50 dark:bg-red-950">
                    <tr>
                      <th scope="col" className={`${headClass} w-16`}>
                        Row
                      </th>
                      <th scope="col" className={headClass}>
                        Email
                      </th>
                      <th scope="col" className={headClass}>
                        Problem
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-red-100 dark:divide-red-950">
                    {withErrors.slice(0, LISTED_ERRORS).map((entry) => (
                      <tr key={entry.row}>
                        <th scope="row" className={`${cellClass} text-left font-medium tabular-nums`}>
                          {entry.line}
                        </th>
                        <td className={`${cellClass} max-w-48 break-all`}>
                          {entry.values.email || <span className="text-zinc-600 dark:text-zinc-400">(empty)</span>}
                        </td>
                        <td className={cellClass}>
                          <ul>
                            {entry.errors.map((error, i) => (
                              <li key={i}>
                                <span className="font-medium">{contactColumnLabels[error.field].replace(/ \(.*\)$/, '')}:</span> {error.message}
                              </li>
                            ))}
                          </ul>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {withErrors.length > LISTED_ERRORS ? (
                <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
                  And {plural(withErrors.length - LISTED_ERRORS, 'more row', 'more rows')} with errors.
                </p>
              ) : null}
              <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">Row numbers are the file’s line numbers, as a spreadsheet shows them.</p>
            </section>
          ) : null}

          {preview.valid.length > 0 ? (
            <section aria-labelledby={`${id}-sample`}>
              <h3 id={`${id}-sample`} className="text-sm font-semibold">
                {preview.valid.length > SAMPLE_SIZE ? `First ${SAMPLE_SIZE} contacts to import` : 'Contacts to import'}
              </h3>
              <ul className="mt-1 divide-y divide-zinc-100 rounded-md border border-zinc-200 text-sm dark:divide-zinc-800 dark:border-zinc-800">
                {preview.valid.slice(0, SAMPLE_SIZE).map((contact) => (
                  <li key={contact.email} className="flex flex-wrap gap-x-3 px-3 py-2">
                    <span className="font-medium">{contactName(contact) || contact.email}</span>
                    {contactName(contact) ? <span className="text-zinc-600 dark:text-zinc-400">{contact.email}</span> : null}
                    {contact.company ? <span className="text-zinc-600 dark:text-zinc-400">{contact.company}</span> : null}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </>
      )}
    </div>
  );
}
