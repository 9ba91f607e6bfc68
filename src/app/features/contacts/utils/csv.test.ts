import { describe, expect, it } from 'vitest';
import { CsvParser, neutraliseFormula, parseCsv, parseCsvText, readCsvFile, restoreFormula, toCsv, type CsvRecord } from './csv';

function parseInChunks(chunks: string[], parser = new CsvParser()): CsvRecord[] {
  return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
}

/** The same text fed in two pieces, split at every position, and one character at a time. */
function everySplit(text: string): CsvRecord[][] {
  const splits = Array.from({ length: text.length + 1 }, (_, at) => parseInChunks([text.slice(0, at), text.slice(at)]));
  return [...splits, parseInChunks([...text])];
}

/** A file whose every stream hands out the given byte chunks one read at a time, recording how it was read. */
function byteFile(chunks: Uint8Array<ArrayBuffer>[]) {
  const log = { streams: 0, reads: 0, cancelled: false };
  const file = {
    stream: () => {
      log.streams++;
      let next = 0;
      return new ReadableStream<Uint8Array<ArrayBuffer>>({
        pull(controller) {
          log.reads++;
          const chunk = chunks[next++];
          if (chunk) controller.enqueue(chunk);
          else controller.close();
        },
        cancel() {
          log.cancelled = true;
        },
      });
    },
  };
  return { file, log };
}

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('parsing CSV', () => {
  it('reads quoted fields holding commas, doubled quotes and line breaks', () => {
    const text = 'name,company,note\r\n"Lovelace, Ada","The ""Analytical"" Engine","line one\r\nline two\nline three"\r\nplain,,"" \r\n';
    expect(parseCsvText(text)).toEqual([
      ['name', 'company', 'note'],
      ['Lovelace, Ada', 'The "Analytical" Engine', 'line one\r\nline two\nline three'],
      ['plain', '', ' '],
    ]);
  });

  it('ends lines at CRLF, LF or a lone CR alike', () => {
    const rows = [
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ];
    expect(parseCsvText('a,b\r\n1,2\r\n3,4\r\n')).toEqual(rows);
    expect(parseCsvText('a,b\n1,2\n3,4\n')).toEqual(rows);
    expect(parseCsvText('a,b\r1,2\r3,4\r')).toEqual(rows);
    expect(parseCsvText('a,b\r1,2\n3,4\r\n')).toEqual(rows);
  });

  it('keeps the last row when the text does not end with a line break', () => {
    expect(parseCsvText('a,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(parseCsvText('a,b\n1,"2"')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(parseCsvText('a,b\n1,')).toEqual([
      ['a', 'b'],
      ['1', ''],
    ]);
  });

  it('skips lines with nothing on them but keeps rows of empty fields', () => {
    expect(parseCsvText('\r\n\na,b\r\n\r\n\r\n1,2\n\n,\n""\n\r\n')).toEqual([['a', 'b'], ['1', '2'], ['', ''], ['']]);
    expect(parseCsvText('')).toEqual([]);
    expect(parseCsvText('\r\n\n\r')).toEqual([]);
  });

  it('drops a byte order mark at the start only', () => {
    expect(parseCsvText('\uFEFFemail,name\nada@example.com,Ada')).toEqual([
      ['email', 'name'],
      ['ada@example.com', 'Ada'],
    ]);
    expect(parseInChunks(['', '\uFEFF', 'email\n\uFEFFx']).map((r) => r.fields)).toEqual([['email'], ['\uFEFFx']]);
  });

  it('keeps a stray quote in an unquoted field, and text after a closing quote, as they are', () => {
    expect(parseCsvText('5" floppy,O"Brien\n"Ada" Lovelace,x')).toEqual([
      ['5" floppy', 'O"Brien'],
      ['Ada Lovelace', 'x'],
    ]);
  });

  it('returns an unterminated quoted field as read and says so', () => {
    const parser = new CsvParser();
    const rows = parseInChunks(['a,b\n1,"unfinished\nstill going'], parser).map((r) => r.fields);
    expect(rows).toEqual([
      ['a', 'b'],
      ['1', 'unfinished\nstill going'],
    ]);
    expect(parser.unterminatedQuote).toBe(true);

    const closed = new CsvParser();
    parseInChunks(['a,"b"'], closed);
    expect(closed.unterminatedQuote).toBe(false);
  });

  it('gives the same rows wherever the text is split into chunks', () => {
    const text = '\uFEFFname;note;x\r\n"Ada; ""the first""";"two\r\nlines";\r\r\n\nB"ob;"";x\r"end"';
    const expected = parseCsvText(text);
    expect(expected).toEqual([['name', 'note', 'x'], ['Ada; "the first"', 'two\r\nlines', ''], ['B"ob', '', 'x'], ['end']]);
    for (const records of everySplit(text)) expect(records.map((record) => record.fields)).toEqual(expected);
  });

  it('tells the line each row starts on, counting CRLF once and skipped lines too', () => {
    const text = 'h1,h2\r\n\r\n"a\r\nb",c\r\nd,e\n\n\rf,g';
    const lines = parseInChunks([text]).map((record) => record.line);
    expect(lines).toEqual([1, 3, 5, 8]);
    for (const records of everySplit(text)) expect(records.map((record) => record.line)).toEqual(lines);
  });
});

describe('choosing the delimiter', () => {
  it('uses a semicolon when the first line has more of them than commas outside quotes', () => {
    const parser = new CsvParser();
    const rows = parseInChunks(['"Name, full";E-mail;Phone\n"Lovelace, Ada";ada@example.com;+44 1,5'], parser).map((r) => r.fields);
    expect(parser.delimiter).toBe(';');
    expect(rows).toEqual([
      ['Name, full', 'E-mail', 'Phone'],
      ['Lovelace, Ada', 'ada@example.com', '+44 1,5'],
    ]);
  });

  it('stays with commas when semicolons are only inside quotes or fewer', () => {
    const quoted = new CsvParser();
    expect(parseInChunks(['"a;b;c",d\n1;2,3'], quoted).map((r) => r.fields)).toEqual([
      ['a;b;c', 'd'],
      ['1;2', '3'],
    ]);
    expect(quoted.delimiter).toBe(',');

    const tie = new CsvParser();
    parseInChunks(['a;b,c\n'], tie);
    expect(tie.delimiter).toBe(',');
  });

  it('decides from the first non-empty line even when it spans chunks, a quoted line break, or the whole input', () => {
    for (const records of everySplit('\r\n"x\n,,,";b;c\n1;2;3')) {
      expect(records.map((record) => record.fields)).toEqual([
        ['x\n,,,', 'b', 'c'],
        ['1', '2', '3'],
      ]);
    }
    const oneLine = new CsvParser();
    expect(parseInChunks(['a;b', ';c'], oneLine).map((r) => r.fields)).toEqual([['a', 'b', 'c']]);
    expect(oneLine.delimiter).toBe(';');
  });

  it('uses a delimiter it is given without guessing', () => {
    const parser = new CsvParser({ delimiter: ',' });
    expect(parseInChunks(['a;b;c,d'], parser).map((r) => r.fields)).toEqual([['a;b;c', 'd']]);
  });
});

describe('parseCsv', () => {
  it('yields rows from an async stream of text and exposes what it detected', async () => {
    async function* chunks() {
      yield '\uFEFFa;b\r';
      yield '\n1;"2';
      yield '"""\r\n';
      yield '3;4';
    }
    const parser = new CsvParser();
    const rows: string[][] = [];
    for await (const row of parseCsv(chunks(), parser)) rows.push(row);
    expect(rows).toEqual([
      ['a', 'b'],
      ['1', '2"'],
      ['3', '4'],
    ]);
    expect(parser.delimiter).toBe(';');
    expect(parser.unterminatedQuote).toBe(false);
  });
});

describe('readCsvFile', () => {
  it('reads a Blob through its stream: header, rows, delimiter, and the lines rows start on', async () => {
    const file = new Blob(['\uFEFFemail;name\r\n\r\nada@example.com;"Ada\r\nLovelace"\r\ngrace@example.com;Grace\r\n'], { type: 'text/csv' });
    expect(await readCsvFile(file, { maxRows: 100 })).toEqual({
      header: ['email', 'name'],
      rows: [
        ['ada@example.com', 'Ada\r\nLovelace'],
        ['grace@example.com', 'Grace'],
      ],
      rowLines: [3, 5],
      delimiter: ';',
      truncated: false,
      unterminatedQuote: false,
      encoding: 'utf-8',
    });
  });

  it('decodes characters whose bytes are split between chunks', async () => {
    const bytes = utf8('name\nZoë 李 🦊\n');
    for (let at = 0; at <= bytes.length; at++) {
      const { file } = byteFile([bytes.slice(0, at), bytes.slice(at)]);
      const read = await readCsvFile(file, { maxRows: 10 });
      expect(read.rows).toEqual([['Zoë 李 🦊']]);
      expect(read.encoding).toBe('utf-8');
    }
  });

  it('stops reading once there are more than maxRows data rows, and says it did', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => utf8(`row${i}\n`));
    const { file, log } = byteFile([utf8('header\n'), ...lines]);
    const read = await readCsvFile(file, { maxRows: 10 });
    expect(log.streams).toBe(1);
    expect(read.header).toEqual(['header']);
    expect(read.rows).toEqual(Array.from({ length: 10 }, (_, i) => [`row${i}`]));
    expect(read.truncated).toBe(true);
    expect(log.cancelled).toBe(true);
    expect(log.reads).toBeLessThan(20);
  });

  it('is not truncated with exactly maxRows rows, with or without a final line break', async () => {
    for (const text of ['h\n1\n2\n', 'h\n1\n2', 'h\n1\n2\n\n\n']) {
      const read = await readCsvFile(new Blob([text]), { maxRows: 2 });
      expect(read.rows).toEqual([['1'], ['2']]);
      expect(read.truncated).toBe(false);
    }
  });

  it('reads a file that is not UTF-8 again as Windows-1252, as Outlook writes it', async () => {
    const latin = new Uint8Array([...utf8('name,company\nJos'), 0xe9, ...utf8(',Caf'), 0xe9, 0x0a]);
    const { file, log } = byteFile([latin]);
    const read = await readCsvFile(file, { maxRows: 10 });
    expect(read.rows).toEqual([['José', 'Café']]);
    expect(read.encoding).toBe('windows-1252');
    expect(log.streams).toBe(2);
    expect(log.cancelled).toBe(true);
  });

  it('reports an unterminated quote and reads an empty file as no header and no rows', async () => {
    const unfinished = await readCsvFile(new Blob(['a\n"b']), { maxRows: 10 });
    expect(unfinished.rows).toEqual([['b']]);
    expect(unfinished.unterminatedQuote).toBe(true);

    const empty = await readCsvFile(new Blob([]), { maxRows: 10 });
    expect(empty).toMatchObject({ header: [], rows: [], delimiter: ',', truncated: false });
  });
});

describe('writing CSV', () => {
  it('ends every row with CRLF and quotes only the cells that need it, doubling quotes', () => {
    expect(toCsv([['plain', 'with, comma', 'semi;colon', 'say "hi"', 'two\nlines', 'cr\rhere', ' padded ', '', 'ünïcode']])).toBe(
      'plain,"with, comma","semi;colon","say ""hi""","two\nlines","cr\rhere"," padded ",,ünïcode\r\n',
    );
    expect(toCsv([])).toBe('');
    expect(toCsv([[''], ['a']])).toBe('""\r\na\r\n');
  });

  it('neutralises cells a spreadsheet would run as formulas', () => {
    expect(toCsv([['=SUM(A1)', '+44 20 7946 0958', '-5', '@home', '\tx', '\rx', 'a=b', "'quoted"]])).toBe(
      `'=SUM(A1),'+44 20 7946 0958,'-5,'@home,'\tx,"'\rx",a=b,'quoted\r\n`,
    );
    expect(toCsv([['=HYPERLINK("http://evil.example","x")']])).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"\r\n`);
  });

  it('restores what it neutralised, and nothing else', () => {
    for (const cell of ['=SUM(A1)', '+44', '-5', '@home', '\tx', '\rx', 'plain', '', "it's", "'", "'x"]) {
      expect(restoreFormula(neutraliseFormula(cell))).toBe(cell);
    }
    expect(restoreFormula("'=x")).toBe('=x');
    expect(neutraliseFormula("'=x")).toBe("'=x");
  });

  it('reads back what it wrote, wherever the text is split', () => {
    const rows = [['email', 'note'], ['a@example.com', 'He said "no", then\r\nleft; twice'], ['=1+1', ' ', ''], [''], ['-', '@', '+']];
    const text = toCsv(rows);
    for (const records of everySplit(text)) expect(records.map((record) => record.fields.map(restoreFormula))).toEqual(rows);
  });

  it('reads back random cells in random chunks, whatever the delimiter it detects', () => {
    // A small seeded generator, so a failure repeats.
    let seed = 42;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    const alphabet = ['a', 'é', '🦊', ' ', ',', ';', '"', "'", '=', '-', '\r', '\n', '\r\n', '\uFEFF'];
    for (let round = 0; round < 200; round++) {
      const width = 1 + random(4);
      const rows = Array.from({ length: 1 + random(5) }, () =>
        Array.from({ length: width }, () => Array.from({ length: random(6) }, () => alphabet[random(alphabet.length)]).join('')),
      );
      const text = toCsv(rows);
      const chunks: string[] = [];
      for (let at = 0; at < text.length;) {
        const size = 1 + random(8);
        chunks.push(text.slice(at, at + size));
        at += size;
      }
      expect(parseInChunks(chunks).map((record) => record.fields.map(restoreFormula))).toEqual(rows);
    }
  });
});
