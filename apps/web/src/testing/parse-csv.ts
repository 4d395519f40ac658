/**
 * Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF) into rows of fields: how the
 * tests read an export back. No trailing empty row for a final line end.
 *
 * @example
 * parseCsv('a,"b,c"\r\n1,2\r\n'); // [['a', 'b,c'], ['1', '2']]
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      // The CRLF line end; a lone CR outside quotes is data (a neutralized one is quoted).
    } else if (char === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
