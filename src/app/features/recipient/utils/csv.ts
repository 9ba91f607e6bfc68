/**
 * RFC 4180 CSV (quoted fields, doubled quotes, commas and line breaks inside quotes, CRLF or LF), as
 * rows of cells, at most `maxRows` of them. A semicolon-separated file (as spreadsheets in many
 * languages save it) is read as such when its first line has more semicolons than commas.
 */
export function parseCsv(
  text: string,
  maxRows: number,
  options: { dropLastLine?: boolean } = {},
): string[][] {
  const input = options.dropLastLine
    ? text.slice(0, Math.max(0, text.lastIndexOf("\n")))
    : text;
  const firstLine = input.slice(
    0,
    input.indexOf("\n") === -1 ? input.length : input.indexOf("\n"),
  );
  const separator =
    (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0)
      ? ";"
      : ",";
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < input.length && rows.length < maxRows; i++) {
    const c = input[i]!;
    if (quoted) {
      if (c === '"' && input[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === "") quoted = true;
    else if (c === separator) {
      row.push(cell);
      cell = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && input[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += c;
  }
  if ((cell !== "" || row.length > 0) && rows.length < maxRows)
    rows.push([...row, cell]);
  return rows;
}
