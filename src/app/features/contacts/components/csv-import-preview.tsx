import { useId } from 'react';
import { inputClass } from '../../../components/text-field';
import { contactName } from '../../../lib/contacts';
import { useIntl } from '../../../lib/intl';
import { contactColumnLabels, contactColumnName, contactColumns, mappingProblem, type ContactColumn, type ImportPreview } from '../utils/contact-import';

/** How many rows with errors are listed; the rest are counted. A file with thousands of bad rows is the wrong file. */
const LISTED_ERRORS = 100;
/** How many ready contacts are shown as a sample of what will be written. */
const SAMPLE_SIZE = 5;

const cellClass = 'px-3 py-2 align-top';
const headClass = 'px-3 py-2 text-start text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400';

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
  const intl = useIntl();
  const id = useId();
  const problem = mappingProblem(mapping, intl);
  const withErrors = preview.entries.filter((entry) => entry.errors.length > 0);

  function choose(index: number, column: ContactColumn | null) {
    // A field comes from one column: choosing it here frees it wherever it was before.
    onMappingChange(mapping.map((current, i) => (i === index ? column : current === column ? null : current)));
  }

  return (
    <div className="space-y-5">
      <section aria-labelledby={`${id}-columns`}>
        <h3 id={`${id}-columns`} className="text-sm font-semibold">
          {intl.formatMessage({ id: 'contacts.importPreview.columns', defaultMessage: 'Columns' })}
        </h3>
        <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({
            id: 'contacts.importPreview.columnsHint',
            defaultMessage: 'Choose what each column of the file holds. Columns set to “Don’t import” are left out.',
          })}
        </p>
        <div className="mt-2 overflow-x-auto rounded-md border border-zinc-200 dark:border-zinc-800">
          <table className="w-full text-sm">
            <thead className="bg-zinc-50 dark:bg-zinc-900/60">
              <tr>
                <th scope="col" className={headClass}>
                  {intl.formatMessage({ id: 'contacts.importPreview.columnInFile', defaultMessage: 'Column in file' })}
                </th>
                <th scope="col" className={`${headClass} hidden sm:table-cell`}>
                  {intl.formatMessage({ id: 'contacts.importPreview.example', defaultMessage: 'Example' })}
                </th>
                <th scope="col" className={headClass}>
                  {intl.formatMessage({ id: 'contacts.importPreview.importAs', defaultMessage: 'Import as' })}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {header.map((name, index) => {
                const unnamed = intl.formatMessage({ id: 'contacts.importPreview.unnamedColumn', defaultMessage: 'Column {number}' }, { number: index + 1 });
                return (
                  <tr key={index}>
                    <th scope="row" className={`${cellClass} max-w-40 truncate text-start font-medium`} title={name}>
                      {name || <span className="text-zinc-600 dark:text-zinc-400">{unnamed}</span>}
                    </th>
                    <td className={`${cellClass} hidden max-w-48 truncate text-zinc-600 sm:table-cell dark:text-zinc-400`} title={firstRow?.[index]}>
                      {firstRow?.[index] ?? ''}
                    </td>
                    <td className={cellClass}>
                      <select
                        aria-label={intl.formatMessage({ id: 'contacts.importPreview.importColumnAs', defaultMessage: 'Import “{column}” as' }, { column: name || unnamed })}
                        value={mapping[index] ?? ''}
                        onChange={(event) => choose(index, event.target.value === '' ? null : (event.target.value as ContactColumn))}
                        className={`${inputClass} py-1.5`}
                      >
                        <option value="">{intl.formatMessage({ id: 'contacts.importPreview.dontImport', defaultMessage: 'Don’t import' })}</option>
                        {contactColumns.map((column) => (
                          <option key={column} value={column}>
                            {intl.formatMessage(contactColumnLabels[column])}
                          </option>
                        ))}
                      </select>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {problem ? (
          <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
            {problem}
          </p>
        ) : null}
      </section>

      {problem ? null : (
        <>
          <section aria-labelledby={`${id}-summary`}>
            <h3 id={`${id}-summary`} className="text-sm font-semibold">
              {intl.formatMessage({ id: 'contacts.importPreview.rows', defaultMessage: 'Rows' })}
            </h3>
            <ul className="mt-1 space-y-0.5 text-sm">
              <li>
                {intl.formatMessage(
                  {
                    id: 'contacts.importPreview.ready',
                    defaultMessage:
                      '{count, plural, one {<number>#</number> contact is ready to import.} other {<number>#</number> contacts are ready to import.}}',
                  },
                  {
                    count: preview.valid.length,
                    number: (chunks) => (
                      <span key="number" className="font-semibold text-emerald-700 dark:text-emerald-400">
                        {chunks}
                      </span>
                    ),
                  },
                )}
              </li>
              {preview.invalidCount > 0 ? (
                <li>
                  {intl.formatMessage(
                    {
                      id: 'contacts.importPreview.invalid',
                      defaultMessage:
                        '{count, plural, one {<strong># row has</strong> errors and will be skipped.} other {<strong># rows have</strong> errors and will be skipped.}}',
                    },
                    {
                      count: preview.invalidCount,
                      strong: (chunks) => (
                        <span key="strong" className="font-semibold text-red-700 dark:text-red-400">
                          {chunks}
                        </span>
                      ),
                    },
                  )}
                </li>
              ) : null}
              {preview.blankCount > 0 ? (
                <li className="text-zinc-600 dark:text-zinc-400">
                  {intl.formatMessage(
                    {
                      id: 'contacts.importPreview.blank',
                      defaultMessage: '{count, plural, one {# empty row is ignored.} other {# empty rows are ignored.}}',
                    },
                    { count: preview.blankCount },
                  )}
                </li>
              ) : null}
            </ul>
          </section>

          {withErrors.length > 0 ? (
            <section aria-labelledby={`${id}-errors`}>
              <h3 id={`${id}-errors`} className="text-sm font-semibold">
                {intl.formatMessage({ id: 'contacts.importPreview.rowsWithErrors', defaultMessage: 'Rows with errors' })}
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
                        {intl.formatMessage({ id: 'contacts.importPreview.row', defaultMessage: 'Row' })}
                      </th>
                      <th scope="col" className={headClass}>
                        {intl.formatMessage({ id: 'contacts.importPreview.email', defaultMessage: 'Email' })}
                      </th>
                      <th scope="col" className={headClass}>
                        {intl.formatMessage({ id: 'contacts.importPreview.problem', defaultMessage: 'Problem' })}
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-red-100 dark:divide-red-950">
                    {withErrors.slice(0, LISTED_ERRORS).map((entry) => (
                      <tr key={entry.row}>
                        <th scope="row" className={`${cellClass} text-start font-medium tabular-nums`}>
                          {entry.line}
                        </th>
                        <td className={`${cellClass} max-w-48 break-all`}>
                          {entry.values.email || (
                            <span className="text-zinc-600 dark:text-zinc-400">
                              {intl.formatMessage({ id: 'contacts.importPreview.emptyEmail', defaultMessage: '(empty)' })}
                            </span>
                          )}
                        </td>
                        <td className={cellClass}>
                          <ul>
                            {entry.errors.map((error, i) => (
                              <li key={i}>
                                {intl.formatMessage(
                                  { id: 'contacts.importPreview.errorOnColumn', defaultMessage: '<column>{name}:</column> {problem}' },
                                  {
                                    name: contactColumnName(error.field, intl),
                                    problem: error.message,
                                    column: (chunks) => (
                                      <span key="column" className="font-medium">
                                        {chunks}
                                      </span>
                                    ),
                                  },
                                )}
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
                  {intl.formatMessage(
                    { id: 'contacts.importPreview.moreErrors', defaultMessage: 'And {count, plural, one {# more row} other {# more rows}} with errors.' },
                    { count: withErrors.length - LISTED_ERRORS },
                  )}
                </p>
              ) : null}
              <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
                {intl.formatMessage({ id: 'contacts.importPreview.rowNumbers', defaultMessage: 'Row numbers are the file’s line numbers, as a spreadsheet shows them.' })}
              </p>
            </section>
          ) : null}

          {preview.valid.length > 0 ? (
            <section aria-labelledby={`${id}-sample`}>
              <h3 id={`${id}-sample`} className="text-sm font-semibold">
                {preview.valid.length > SAMPLE_SIZE
                  ? intl.formatMessage(
                      { id: 'contacts.importPreview.sampleFirst', defaultMessage: '{count, plural, one {First # contact to import} other {First # contacts to import}}' },
                      { count: SAMPLE_SIZE },
                    )
                  : intl.formatMessage({ id: 'contacts.importPreview.sample', defaultMessage: 'Contacts to import' })}
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
