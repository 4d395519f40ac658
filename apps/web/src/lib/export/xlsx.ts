import { Zip, ZipDeflate } from 'fflate';

import type { ExportColumn, ExportEncoder, PreparedCell } from './cells.ts';
import { headerText, prepareCell } from './cells.ts';

// An XLSX workbook is a zip of XML parts. No browser library streams one (they build the whole
// workbook in memory), so this writes the parts itself and deflates them as they come with
// fflate's streaming Zip: one page of rows in, its compressed bytes out (ADR 0019). Strings are
// inline (`t="inlineStr"`), not a shared-strings table, which would grow with the row count.

/** Rows a worksheet holds at most (Excel's limit, header included); more rows go on a next sheet. */
export const MAX_SHEET_ROWS = 1_048_576;
/** Characters a cell holds at most in Excel; longer text is cut there. */
export const MAX_CELL_CHARS = 32_767;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

// Every `.xml` part is a worksheet unless overridden, so this part is known before any sheet is.
const CONTENT_TYPES = `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;
const ROOT_RELS = `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
// Style 1 is "quote prefix": Excel shows the text as it is and keeps it text when edited, so a
// value that looks like a formula never becomes one, without a visible apostrophe. Style 2: bold.
const STYLES = `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;
const SHEET_HEAD = `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><sheetData>`;
const SHEET_TAIL = '</sheetData></worksheet>';

// Characters XML 1.0 cannot carry at all (controls other than tab, LF, CR; lone surrogates).
const INVALID_XML =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text as XML character data: `&`, `<`, `>` and `"` escaped, characters XML cannot carry dropped,
 * cut at Excel's 32,767 characters.
 *
 * @example
 * xmlText('a < b & "c"'); // 'a &lt; b &amp; &quot;c&quot;'
 */
export function xmlText(text: string): string {
  return text
    .replace(INVALID_XML, '')
    .slice(0, MAX_CELL_CHARS)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/** One `<c>` element; `bold` for the header row. */
function cellXml(cell: PreparedCell, bold = false): string {
  if (cell.type === 'empty') return '<c/>';
  if (cell.type === 'number') return `<c><v>${cell.value}</v></c>`;
  const style = cell.formulaLike ? ' s="1"' : bold ? ' s="2"' : '';
  return `<c t="inlineStr"${style}><is><t xml:space="preserve">${xmlText(cell.value)}</t></is></c>`;
}

/**
 * A worksheet name Excel accepts: no `[]:*?/\`, at most 31 characters, never empty.
 *
 * @example
 * sheetName('Support: tickets', 1); // 'Support tickets'
 * sheetName('Support tickets', 2); // 'Support tickets (2)'
 */
export function sheetName(name: string, index: number): string {
  const suffix = index > 1 ? ` (${index})` : '';
  const base = name.replace(/[[\]:*?/\\]/g, '').trim() || 'Export';
  return `${base.slice(0, 31 - suffix.length).trim()}${suffix}`;
}

/**
 * Writes an XLSX workbook as a stream: header row in bold and frozen, numbers as numbers, dates as
 * ISO 8601 UTC text (headers say UTC), formula-like text kept as text (quote prefix). A list
 * longer than a worksheet goes on as "Name (2)", "Name (3)", each with the header row.
 *
 * @example
 * const xlsx = createXlsxEncoder('Support tickets');
 * const bytes = [...xlsx.start(columns), ...xlsx.rows(rows), ...xlsx.finish()];
 */
export function createXlsxEncoder(
  name: string,
  { maxSheetRows = MAX_SHEET_ROWS }: { maxSheetRows?: number } = {},
): ExportEncoder {
  const encoder = new TextEncoder();
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else out.push(chunk);
  });
  let columns: ExportColumn[] = [];
  let sheet: ZipDeflate | null = null;
  let sheets = 0;
  let sheetRows = 0;

  const drain = (): Uint8Array[] => {
    if (failure) throw failure;
    return out.splice(0);
  };
  const addPart = (path: string, xml: string) => {
    const part = new ZipDeflate(path, { level: 6 });
    zip.add(part);
    part.push(encoder.encode(xml), true);
  };
  const headerRow = () =>
    `<row r="1">${columns.map((column) => cellXml(prepareCell(headerText(column), 'text'), true)).join('')}</row>`;
  const openSheet = () => {
    sheets += 1;
    sheetRows = 1;
    sheet = new ZipDeflate(`xl/worksheets/sheet${sheets}.xml`, { level: 6 });
    zip.add(sheet);
    sheet.push(encoder.encode(SHEET_HEAD + headerRow()));
  };
  const closeSheet = () => {
    sheet?.push(encoder.encode(SHEET_TAIL), true);
    sheet = null;
  };

  return {
    extension: 'xlsx',
    mediaType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    start(next) {
      columns = next;
      addPart('[Content_Types].xml', CONTENT_TYPES);
      addPart('_rels/.rels', ROOT_RELS);
      addPart('xl/styles.xml', STYLES);
      openSheet();
      return drain();
    },
    rows(rows) {
      let xml = '';
      for (const row of rows) {
        if (sheetRows >= maxSheetRows) {
          if (xml) sheet?.push(encoder.encode(xml));
          xml = '';
          closeSheet();
          openSheet();
        }
        sheetRows += 1;
        xml += `<row r="${sheetRows}">`;
        for (let i = 0; i < columns.length; i += 1) {
          xml += cellXml(prepareCell(row[i], columns[i]?.kind ?? 'text'));
        }
        xml += '</row>';
      }
      if (xml) sheet?.push(encoder.encode(xml));
      return drain();
    },
    finish() {
      closeSheet();
      const ids = Array.from({ length: sheets }, (_, i) => i + 1);
      addPart(
        'xl/workbook.xml',
        `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${ids
          .map(
            (id) =>
              `<sheet name="${xmlText(sheetName(name, id))}" sheetId="${id}" r:id="rId${id}"/>`,
          )
          .join('')}</sheets></workbook>`,
      );
      addPart(
        'xl/_rels/workbook.xml.rels',
        `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">${ids
          .map(
            (id) =>
              `<Relationship Id="rId${id}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${id}.xml"/>`,
          )
          .join(
            '',
          )}<Relationship Id="rId${sheets + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
      );
      zip.end();
      return drain();
    },
  };
}
