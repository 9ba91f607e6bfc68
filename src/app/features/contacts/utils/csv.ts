/**
 * RFC 4180 CSV in the browser, both ways. Reading is incremental so that an imported file is never
 * held whole in memory (the project rule): the parser takes text in pieces of any size and gives
 * back each row as soon as its line ends.
 */

export type CsvDelimiter = ',' | ';';

/** A parsed row and the 1-based line of the file it starts on (a quoted field can make a row span several lines). */
export interface CsvRecord {
  fields: string[];
  line: number;
}

const BYTE_ORDER_MARK = '\uFEFF';

type ParserState = 'fieldStart' | 'unquoted' | 'quoted' | 'quoteInQuoted';

/**
 * An incremental RFC 4180 parser, lenient where real exports are sloppy:
 * - a UTF-8 byte order mark at the very start is dropped;
 * - CRLF, LF and a lone CR (old Mac exports) all end a line, and lines with nothing on them are skipped;
 * - a quote inside an unquoted field, or text after a closing quote, is kept as it is rather than refused;
 * - an unterminated quoted field at the end of input is returned as read, and `unterminatedQuote` says so.
 * The delimiter is a comma unless the first non-empty line has more semicolons than commas outside quotes,
 * which is how Excel writes CSV in locales whose decimal separator is a comma.
 */
export class CsvParser {
  #delimiter: CsvDelimiter | undefined;
  /** Text held back until the first line is complete and the delimiter known. */
  #undetected = '';
  #sawText = false;
  #ended = false;
  #unterminatedQuote = false;

  #state: ParserState = 'fieldStart';
  #field = '';
  #fieldWasQuoted = false;
  #row: string[] = [];
  #rowLine = 1;
  #line = 1;
  #previousWasCr = false;

  constructor(options: { delimiter?: CsvDelimiter } = {}) {
    this.#delimiter = options.delimiter;
  }

  /** The delimiter in use: the one given, else the detected one (a comma until the first line is complete). */
  get delimiter(): CsvDelimiter {
    return this.#delimiter ?? ',';
  }

  /** True after `end()` when the input stopped inside a quoted field. */
  get unterminatedQuote(): boolean {
    return this.#unterminatedQuote;
  }

  /** Feeds the next piece of text; returns the rows it completed. */
  push(text: string): CsvRecord[] {
    if (this.#ended) throw new Error('CsvParser: push() after end()');
    if (!this.#sawText && text.length > 0) {
      this.#sawText = true;
      if (text.startsWith(BYTE_ORDER_MARK)) text = text.slice(1);
    }
    if (this.#delimiter === undefined) {
      this.#undetected += text;
      // Nothing to decide until a line break arrives; saves rescanning a long first line on every chunk.
      if (!/[\r\n]/.test(text)) return [];
      const detected = detectDelimiter(this.#undetected, false);
      if (detected === undefined) return [];
      this.#delimiter = detected;
      text = this.#undetected;
      this.#undetected = '';
    }
    const records: CsvRecord[] = [];
    this.#consume(text, records);
    return records;
  }

  /** Signals the end of input; returns the last row when the input did not end with a line break. */
  end(): CsvRecord[] {
    if (this.#ended) return [];
    const records: CsvRecord[] = [];
    if (this.#delimiter === undefined) {
      this.#delimiter = detectDelimiter(this.#undetected, true) ?? ',';
      this.#consume(this.#undetected, records);
      this.#undetected = '';
    }
    this.#ended = true;
    if (this.#state === 'quoted') this.#unterminatedQuote = true;
    if (this.#state !== 'fieldStart' || this.#row.length > 0) this.#endRow(records);
    return records;
  }

  #consume(text: string, records: CsvRecord[]): void {
    const delimiter = this.delimiter;
    for (let i = 0; i < text.length; i++) {
      const char = text[i]!;
      const isLineBreak = char === '\n' || char === '\r';
      // The LF of a CRLF: the CR already ended the line (or was kept in a quoted field).
      const isLfOfCrlf = char === '\n' && this.#previousWasCr;
      this.#previousWasCr = char === '\r';

      if (this.#state === 'quoted') {
        if (char === '"') this.#state = 'quoteInQuoted';
        else this.#field += char;
        if (isLineBreak && !isLfOfCrlf) this.#line++;
        continue;
      }
      if (isLfOfCrlf) continue;
      if (isLineBreak) {
        if (this.#state !== 'fieldStart' || this.#row.length > 0) this.#endRow(records);
        this.#line++;
        continue;
      }
      if (this.#state === 'fieldStart' && this.#row.length === 0) this.#rowLine = this.#line;

      if (char === delimiter) {
        this.#endField();
      } else if (char === '"' && this.#state === 'fieldStart') {
        this.#state = 'quoted';
        this.#fieldWasQuoted = true;
      } else if (char === '"' && this.#state === 'quoteInQuoted') {
        this.#field += '"';
        this.#state = 'quoted';
      } else {
        this.#field += char;
        this.#state = 'unquoted';
      }
    }
  }

  #endField(): void {
    this.#row.push(this.#field);
    this.#field = '';
    this.#fieldWasQuoted = false;
    this.#state = 'fieldStart';
  }

  #endRow(records: CsvRecord[]): void {
    const isEmptyLine = this.#row.length === 0 && this.#field === '' && !this.#fieldWasQuoted;
    this.#endField();
    if (!isEmptyLine) records.push({ fields: this.#row, line: this.#rowLine });
    this.#row = [];
  }
}

/**
 * Looks at the first non-empty line only, counting delimiters outside quotes (a quote opens a quoted
 * field only at the start of a field, where either character may have ended the previous one).
 * Undefined while that line is not yet complete and more text may come.
 */
function detectDelimiter(text: string, isFinal: boolean): CsvDelimiter | undefined {
  let commas = 0;
  let semicolons = 0;
  let inQuotes = false;
  let justClosedQuote = false;
  let atFieldStart = true;
  let lineHasText = false;
  for (const char of text) {
    if (inQuotes) {
      if (char === '"') {
        inQuotes = false;
        justClosedQuote = true;
      }
      continue;
    }
    if (char === '\n' || char === '\r') {
      if (lineHasText) return semicolons > commas ? ';' : ',';
      continue;
    }
    lineHasText = true;
    if (char === '"' && (atFieldStart || justClosedQuote)) inQuotes = true;
    justClosedQuote = false;
    atFieldStart = char === ',' || char === ';';
    if (char === ',') commas++;
    if (char === ';') semicolons++;
  }
  if (!isFinal) return undefined;
  return semicolons > commas ? ';' : ',';
}

/**
 * Parses text arriving in pieces, yielding each row's fields. Pass your own parser to read its
 * `delimiter` and `unterminatedQuote` afterwards.
 */
export async function* parseCsv(chunks: AsyncIterable<string> | Iterable<string>, parser: CsvParser = new CsvParser()): AsyncGenerator<string[], void> {
  for await (const chunk of chunks) {
    for (const record of parser.push(chunk)) yield record.fields;
  }
  for (const record of parser.end()) yield record.fields;
}

/** Parses a whole string at once: for text already in memory (tests, pasted text). */
export function parseCsvText(text: string, parser: CsvParser = new CsvParser()): string[][] {
  return [...parser.push(text), ...parser.end()].map((record) => record.fields);
}

export type CsvEncoding = 'utf-8' | 'windows-1252';

export interface CsvFile {
  /** The first non-empty row; [] for an empty file. */
  header: string[];
  /** At most `maxRows` data rows, in file order. */
  rows: string[][];
  /** For each of `rows`, the 1-based line of the file it starts on. */
  rowLines: number[];
  delimiter: CsvDelimiter;
  /** More than `maxRows` data rows were found; reading stopped there. */
  truncated: boolean;
  /** The file ended inside a quoted field; its last row holds what was read. */
  unterminatedQuote: boolean;
  /** How the bytes were read: UTF-8, or Windows-1252 when the file is not valid UTF-8 (see `readCsvFile`). */
  encoding: CsvEncoding;
}

/**
 * Reads a CSV file chunk by chunk (never `text()`/`arrayBuffer()`, which would hold it whole) and stops
 * as soon as it has seen more than `maxRows` data rows. Bytes are decoded with `TextDecoder` in stream
 * mode rather than `TextDecoderStream`, which not every environment we test in provides.
 *
 * Outlook and older Excel write CSV in the Windows code page, not UTF-8. Decoding those as UTF-8
 * would quietly turn every "é" into "\uFFFD", so the first read is strict, and a file that is not
 * valid UTF-8 is read again (the file is streamed a second time, still never held) as Windows-1252,
 * which decodes any byte. A byte order mark, if any, is left to the parser to drop.
 */
export async function readCsvFile(file: Pick<Blob, 'stream'>, options: { maxRows: number }): Promise<CsvFile> {
  const asUtf8 = await readWithEncoding(file, 'utf-8', options.maxRows);
  if (asUtf8) return asUtf8;
  // Windows-1252 gives every byte a character, so this read always decodes.
  return (await readWithEncoding(file, 'windows-1252', options.maxRows))!;
}

/** Undefined when the bytes are not valid in `encoding` (only possible for UTF-8). */
async function readWithEncoding(file: Pick<Blob, 'stream'>, encoding: CsvEncoding, maxRows: number): Promise<CsvFile | undefined> {
  const decoder = new TextDecoder(encoding, { fatal: encoding === 'utf-8', ignoreBOM: true });
  const parser = new CsvParser();
  const reader = file.stream().getReader();
  let header: string[] | undefined;
  const rows: string[][] = [];
  const rowLines: number[] = [];
  let truncated = false;

  const take = (records: CsvRecord[]) => {
    for (const record of records) {
      if (header === undefined) header = record.fields;
      else if (rows.length < maxRows) {
        rows.push(record.fields);
        rowLines.push(record.line);
      } else {
        truncated = true;
        return;
      }
    }
  };
  const decode = (bytes?: Uint8Array): string | undefined => {
    try {
      return bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
    } catch (error) {
      if (error instanceof TypeError) return undefined;
      throw error;
    }
  };

  let finished = false;
  try {
    while (!truncated) {
      const { done, value } = await reader.read();
      const text = decode(done ? undefined : value);
      if (text === undefined) return undefined;
      take(parser.push(text));
      if (done) {
        take(parser.end());
        finished = true;
        break;
      }
    }
  } finally {
    // Stops the file being read any further. A stream that failed rejects the cancel too: its own error is the one to report.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return {
    header: header ?? [],
    rows,
    rowLines,
    delimiter: parser.delimiter,
    truncated,
    unterminatedQuote: parser.unterminatedQuote,
    encoding,
  };
}

/** A leading character that makes Excel, LibreOffice or Google Sheets treat a cell as a formula. */
const FORMULA_TRIGGER = /^[=+\-@\t\r]/;
const NEUTRALISED_FORMULA = /^'[=+\-@\t\r]/;

/**
 * Formula-injection safety (OWASP "CSV Injection"): a cell starting with `=`, `+`, `-`, `@`, tab or CR
 * gets a leading apostrophe, so a spreadsheet shows it as text instead of evaluating it. The price is
 * that a spreadsheet shows the apostrophe too (`'+44 20 7946 0958`); `restoreFormula` removes it when
 * the file is imported again.
 *
 * The one ambiguity: a value that itself starts with an apostrophe followed by one of those characters
 * (`'=x`) is indistinguishable from a neutralised `=x`, so it loses its apostrophe on a round trip.
 */
export function neutraliseFormula(cell: string): string {
  return FORMULA_TRIGGER.test(cell) ? `'${cell}` : cell;
}

/** The inverse of `neutraliseFormula`, applied to every imported cell (see the ambiguity there). */
export function restoreFormula(cell: string): string {
  return NEUTRALISED_FORMULA.test(cell) ? cell.slice(1) : cell;
}

/**
 * Quoted when the cell holds a delimiter of either kind (so Excel splits it right in any locale), a quote, a line break,
 * or edge whitespace, which `\s` takes to include U+FEFF: a first cell starting with one cannot pass for a byte order mark.
 */
const NEEDS_QUOTES = /[",;\r\n]|^\s|\s$/;

function formatCell(cell: string): string {
  const safe = neutraliseFormula(cell);
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** RFC 4180 text: CRLF after every row, cells quoted when needed and neutralised against formulas. */
export function toCsv(rows: string[][]): string {
  return rows.map((row) => formatRow(row) + '\r\n').join('');
}

function formatRow(row: string[]): string {
  // A row of one empty cell would be an empty line, which readers (ours included) skip.
  if (row.length === 1 && row[0] === '') return '""';
  return row.map(formatCell).join(',');
}
