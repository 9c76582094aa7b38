// Tables out of attached files, and read-only queries over them, in a process of its own
// (lib/data/tables/tables.ts starts it with a heap limit and a deadline). Plain JavaScript so Node
// runs it as it is, under `next start` and in tests alike.
//
//  - build: a CSV or TSV (its encoding, delimiter, quoting and header found from the file), an
//    XLSX (read-excel-file) or an ODS (its content.xml read as a stream) becomes one SQLite
//    file with a table per sheet, columns named as in the header and typed from every value
//    (integer, decimal with its places, real, date, text). Numbers may carry thousands
//    separators, a decimal comma, currency signs and parentheses for negatives; dates in the
//    common day-first, month-first and ISO forms become ISO dates. Two passes over a CSV: the
//    first finds each column's type, the second writes the rows, in batches, so a 200 MB file
//    never sits in memory. Sheets also give their text (tab-separated, a heading per sheet)
//    for the context and the file tools.
//  - query: one SELECT over that file, opened read-only, with sum, total and avg computed in
//    decimal (exact to the cent), the rows capped and their total counted.
//
// tsc checks it (// @ts-check below, with the types in JSDoc), as it checks the TypeScript.
// @ts-check
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { parse as parseCsv } from 'csv-parse';
import { parse as parseCsvSync } from 'csv-parse/sync';

/**
 * @typedef {'dot' | 'comma'} NumberStyle
 * @typedef {'dmy' | 'mdy'} DateOrder
 * @typedef {{ text: string; places: number; grouped: boolean; leadingZero: boolean }} ParsedNumber
 * @typedef {{ ok: boolean; places: number; integers: boolean; leadingZero: boolean }} StyleGuess
 * @typedef {{ type: 'text' } | { type: 'integer'; style: NumberStyle } | { type: 'decimal'; style: NumberStyle; places: number }
 *   | { type: 'date'; order: DateOrder }} ColumnType
 * @typedef {ColumnType & { name: string; places?: number }} Column
 * @typedef {{ decimal: NumberStyle; dates: DateOrder }} Preference
 * @typedef {'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252'} Encoding
 * @typedef {string | number | boolean | Date | null | undefined} Cell
 * @typedef {{ name: string; rows: Cell[][] }} Sheet
 * @typedef {{ name: string; rows: number; columns: { name: string; type: string; places?: number }[];
 *   sample: (string | number | null)[][] }} TableMeta
 * @typedef {{ path: string; name: string; out: string; textOut?: string }} CsvJob
 * @typedef {{ path: string; kind: 'xlsx' | 'ods'; out: string; textOut: string }} SheetsJob
 * @typedef {{ db: string; sql: string; maxRows: number; maxBytes?: number; maxCell?: number }} QueryJob
 * @typedef {({ op: 'query' } & QueryJob) | ({ op: 'build'; kind: 'csv' } & CsvJob) | ({ op: 'build'; kind: 'xlsx' | 'ods' } & SheetsJob)} TableJob
 * @typedef {{ n: bigint; p: number }} Decimal
 * @typedef {{ sum: bigint; p: number; count: number; other: boolean }} Aggregate
 */

/** @param {unknown} err */
const messageOf = (err) => (err instanceof Error ? err.message : String(err));

// ---------- values ----------

const CURRENCY =
  /^(?:[$€£¥₹₽₩₺₪₫฿₴₦]|US\$|CA\$|A\$|R\$|Fr\.?|CHF|USD|EUR|GBP|JPY|INR|CAD|AUD|SEK|NOK|DKK|PLN|CZK|BRL|MXN|ZAR)\s*|\s*(?:[$€£¥₹₽₩₺₪₫฿₴₦]|kr|zł|Kč|CHF|USD|EUR|GBP|JPY|INR|CAD|AUD|SEK|NOK|DKK|PLN|CZK|BRL|MXN|ZAR)$/i;

/**
 * A cell as a number under one convention ('dot': 1,234.56; 'comma': 1.234,56), as its exact
 * decimal text ("-1234.56") and its places, or null when it is not a number that way.
 * @param {string} raw @param {NumberStyle} style @returns {ParsedNumber | null}
 */
export function parseNumber(raw, style) {
  let s = raw.trim();
  if (!s) return null;
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  if (/^[-−–]/.test(s)) {
    negative = !negative;
    s = s.slice(1).trim();
  } else if (s.startsWith('+')) s = s.slice(1).trim();
  // The sign may also come after the currency sign ($-12.00) or at the end (12.00-).
  for (let i = 0; i < 2 && CURRENCY.test(s); i++) s = s.replace(CURRENCY, '').trim();
  if (/^[-−–]/.test(s)) {
    negative = !negative;
    s = s.slice(1).trim();
  }
  if (/[-−]$/.test(s)) {
    negative = !negative;
    s = s.slice(0, -1).trim();
  }
  if (!s) return null;
  const decimal = style === 'comma' ? ',' : '.';
  const group = style === 'comma' ? /[.\s\u00a0\u202f']/g : /[,\s\u00a0\u202f']/g;
  const [whole, fraction, extra] = s.split(decimal);
  if (extra !== undefined) return null;
  // Groups of three after the first (1,234,567), or none at all.
  if (!/^\d+$/.test(whole.replace(group, ''))) return null;
  if (group.test(whole) && !/^\d{1,3}(?:[,.\s\u00a0\u202f']\d{3})+$/.test(whole)) return null;
  if (fraction !== undefined && !/^\d+$/.test(fraction)) return null;
  const digits = whole.replace(group, '').replace(/^0+(?=\d)/, '');
  const text = `${negative ? '-' : ''}${digits}${fraction !== undefined ? `.${fraction}` : ''}`;
  return { text, places: fraction?.length ?? 0, grouped: group.test(whole), leadingZero: /^0\d/.test(whole) };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** @param {number | string} n */
const pad = (n) => String(n).padStart(2, '0');
/** @param {number} y @param {number} m @param {number} d */
const validDate = (y, m, d) => m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
/** @param {string} y */
const fullYear = (y) => (y.length === 2 ? (Number(y) < 70 ? 2000 : 1900) + Number(y) : Number(y));

/**
 * A cell as a date, as an ISO date (with its time when it has one), under one order for
 * numeric dates ('dmy' or 'mdy'); null when it is not a date.
 * @param {string} raw @param {DateOrder} order @returns {string | null}
 */
export function parseDate(raw, order) {
  const s = raw.trim();
  let m = s.match(/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/);
  if (m) {
    if (!validDate(+m[1], +m[2], +m[3])) return null;
    return m[4] ? `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6] ?? '00'}` : `${m[1]}-${m[2]}-${m[3]}`;
  }
  m = s.match(/^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/);
  if (m) return validDate(+m[1], +m[2], +m[3]) ? `${m[1]}-${pad(m[2])}-${pad(m[3])}` : null;
  m = s.match(/^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/);
  if (m) {
    const [a, b] = [+m[1], +m[2]];
    const [day, month] = order === 'mdy' ? [b, a] : [a, b];
    const year = fullYear(m[3]);
    if (!validDate(year, month, day)) return null;
    const date = `${year}-${pad(month)}-${pad(day)}`;
    return m[4] ? `${date} ${pad(m[4])}:${m[5]}:${m[6] ?? '00'}` : date;
  }
  m = s.match(/^(\d{1,2})[ -]([A-Za-z]{3,9})\.?[ -,]*(\d{4})$/) ?? null;
  if (m) {
    const month = MONTHS.indexOf(m[2].slice(0, 3).toLowerCase()) + 1;
    return month && validDate(+m[3], month, +m[1]) ? `${m[3]}-${pad(month)}-${pad(m[1])}` : null;
  }
  m = s.match(/^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/);
  if (m) {
    const month = MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1;
    return month && validDate(+m[3], month, +m[2]) ? `${m[3]}-${pad(month)}-${pad(m[2])}` : null;
  }
  return null;
}

/**
 * What one column's values allow, gathered over every value: a number under each convention
 * (and its places), a date under each order, or text. The column's type is the narrowest
 * that every value fits.
 */
class ColumnGuess {
  constructor() {
    this.filled = 0;
    /** @type {StyleGuess} */
    this.dot = { ok: true, places: 0, integers: true, leadingZero: false };
    /** @type {StyleGuess} */
    this.comma = { ok: true, places: 0, integers: true, leadingZero: false };
    this.dmy = true;
    this.mdy = true;
    // Evidence for a convention: 1.5 or 1,234.56 cannot be read the other way.
    this.dotOnly = 0;
    this.commaOnly = 0;
  }
  /** @param {string} raw */
  add(raw) {
    const s = raw.trim();
    if (!s) return;
    this.filled++;
    for (const style of /** @type {NumberStyle[]} */ (['dot', 'comma'])) {
      const g = this[style];
      if (!g.ok) continue;
      const n = parseNumber(s, style);
      if (!n) {
        g.ok = false;
        continue;
      }
      g.places = Math.max(g.places, n.places);
      if (n.places > 0) g.integers = false;
      if (n.leadingZero) g.leadingZero = true;
    }
    const d = parseNumber(s, 'dot');
    const c = parseNumber(s, 'comma');
    if (d && !c) this.dotOnly++;
    if (c && !d) this.commaOnly++;
    if (this.dmy && !parseDate(s, 'dmy')) this.dmy = false;
    if (this.mdy && !parseDate(s, 'mdy')) this.mdy = false;
  }
  /** The column's type, and how to read its values: preferring the file's own convention where the values allow both. */
  /** @param {Preference} prefer @returns {ColumnType} */
  decide(prefer) {
    if (this.filled === 0) return { type: 'text' };
    /** @type {NumberStyle | null} */
    const numberStyle =
      this.dot.ok && this.comma.ok
        ? this.commaOnly > this.dotOnly || (this.commaOnly === this.dotOnly && prefer.decimal === 'comma')
          ? 'comma'
          : 'dot'
        : this.dot.ok
          ? 'dot'
          : this.comma.ok
            ? 'comma'
            : null;
    if (numberStyle) {
      const g = this[numberStyle];
      // Codes with leading zeros (postcodes, account numbers) are text, as they were written.
      if (!g.leadingZero) {
        if (g.integers) return { type: 'integer', style: numberStyle };
        return { type: 'decimal', style: numberStyle, places: g.places };
      }
    }
    if (this.dmy || this.mdy) return { type: 'date', order: this.dmy && this.mdy ? prefer.dates : this.dmy ? 'dmy' : 'mdy' };
    return { type: 'text' };
  }
}

/** A value as the column's type stores it: a number, an ISO date, or the text as it was (a value that does not fit stays text). */
/** @param {Cell} raw @param {ColumnType} column @returns {string | number | bigint | null} */
function convert(raw, column) {
  if (raw === null || raw === undefined) return null;
  const s = String(raw).trim();
  if (!s) return null;
  if (column.type === 'integer' || column.type === 'decimal') {
    const n = parseNumber(s, column.style);
    if (!n) return s;
    if (column.type === 'integer') {
      const big = BigInt(n.text);
      return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
    }
    return Number(n.text);
  }
  if (column.type === 'date') return parseDate(s, column.order) ?? s;
  return String(raw);
}

// ---------- text and dialect ----------

/** The file's text encoding: a BOM says it; otherwise UTF-8 if it is valid UTF-8, else Windows-1252 (what Excel writes on Windows). */
/** @param {Uint8Array} head @returns {Encoding | null} */
function encodingOf(head) {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return null;
}

/** @param {string} path */
function isUtf8(path) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const fd = fs.openSync(path, 'r');
  const buffer = Buffer.alloc(1 << 20);
  try {
    for (;;) {
      const got = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (got === 0) {
        decoder.decode();
        return true;
      }
      decoder.decode(buffer.subarray(0, got), { stream: true });
    }
  } catch {
    return false;
  } finally {
    fs.closeSync(fd);
  }
}

/** The file as a stream of UTF-8 text in the encoding found (a BOM dropped). */
/** @param {string} path @param {Encoding} encoding @returns {AsyncGenerator<string>} */
function textStream(path, encoding) {
  const decoder = new TextDecoder(encoding, { ignoreBOM: false });
  const input = fs.createReadStream(path, { highWaterMark: 1 << 20 });
  return (async function* () {
    for await (const chunk of input) {
      const text = decoder.decode(chunk, { stream: true });
      if (text) yield text;
    }
    const last = decoder.decode();
    if (last) yield last;
  })();
}

const DELIMITERS = [',', ';', '\t', '|'];

/** The last line break outside double quotes. */
/** @param {string} text */
function lastLineEnd(text) {
  let inQuotes = false;
  let last = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) inQuotes = !inQuotes;
    else if (c === 10 && !inQuotes) last = i;
  }
  return last;
}

/** The delimiter whose rows agree best on their number of fields, over the first 64 KB. */
/** @param {string} sample @param {string} name @param {boolean} whole */
function dialectOf(sample, name, whole) {
  /** @type {{ delimiter: string; score: number; rows: string[][] }} */
  let best = { delimiter: name.toLowerCase().endsWith('.tsv') ? '\t' : ',', score: -1, rows: [] };
  // The last line of the sample may be cut: only whole lines count (a line break inside quotes is not one).
  const cut = whole ? sample : sample.slice(0, Math.max(lastLineEnd(sample), 1));
  for (const delimiter of DELIMITERS) {
    /** @type {string[][]} */
    let rows;
    try {
      rows = parseCsvSync(cut, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, bom: true });
    } catch {
      continue;
    }
    if (rows.length === 0) continue;
    /** @type {Map<number, number>} */
    const counts = new Map();
    for (const r of rows) counts.set(r.length, (counts.get(r.length) ?? 0) + 1);
    const [width, agree] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
    if (width < 2) continue;
    const score = (agree / rows.length) * 1000 + width;
    if (score > best.score) best = { delimiter, score, rows };
  }
  // One column: no delimiter splits anything.
  if (best.rows.length === 0) {
    try {
      best.rows = parseCsvSync(cut, {
        delimiter: best.delimiter,
        relax_column_count: true,
        relax_quotes: true,
        skip_empty_lines: true,
        bom: true,
      });
    } catch {
      best.rows = [];
    }
  }
  return best;
}

/** Whether the first row names the columns: its cells are text (not numbers or dates) where the rows below hold numbers or dates. */
/** @param {string[][]} rows @returns {boolean} */
function hasHeader(rows) {
  if (rows.length < 2) return rows.length === 1 && rows[0].every((c) => c.trim() && !parseNumber(c, 'dot') && !parseDate(c, 'dmy'));
  const [first, ...rest] = rows;
  if (first.some((c) => !c.trim())) return first.filter((c) => c.trim()).length >= Math.max(1, first.length - 1) && differs();
  return differs();
  function differs() {
    /** @param {string} c */
    const typed = (c) =>
      Boolean(c.trim() && (parseNumber(c, 'dot') || parseNumber(c, 'comma') || parseDate(c, 'dmy') || parseDate(c, 'mdy')));
    if (first.some(typed)) return false;
    // Text all the way down: a header when its cells are all different and none repeats below.
    const below = rest.slice(0, 50);
    const typedBelow = first.some((_, i) => below.some((r) => typed(r[i] ?? '')));
    if (typedBelow) return true;
    return new Set(first).size === first.length && first.every((c, i) => !below.some((r) => (r[i] ?? '') === c));
  }
}

/** Column names as the header gives them (trimmed; an empty one, or one that repeats, numbered). */
/** @param {string[] | null} header @param {number} width */
function columnNames(header, width) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  return Array.from({ length: width }, (_, i) => {
    let name = (header?.[i] ?? '').replace(/\s+/g, ' ').trim().slice(0, 100) || `column${i + 1}`;
    const n = (seen.get(name.toLowerCase()) ?? 0) + 1;
    seen.set(name.toLowerCase(), n);
    if (n > 1) name = `${name}_${n}`;
    return name;
  });
}

/** @param {string} name */
const quote = (name) => `"${name.replace(/"/g, '""')}"`;
const SQL_TYPE = { integer: 'INTEGER', decimal: 'REAL', real: 'REAL', date: 'TEXT', text: 'TEXT' };

// ---------- building ----------

/** A table to write rows into (arrays of cell text), in batches; `end` says what it holds. */
/** @param {import('better-sqlite3').Database} db @param {string} table @param {Column[]} columns */
function writeTable(db, table, columns) {
  db.exec(`CREATE TABLE ${quote(table)} (${columns.map((c) => `${quote(c.name)} ${SQL_TYPE[c.type]}`).join(', ')})`);
  const insert = db.prepare(`INSERT INTO ${quote(table)} VALUES (${columns.map(() => '?').join(', ')})`);
  /** @type {unknown[][]} */
  let batch = [];
  let count = 0;
  const flush = db.transaction((/** @type {unknown[][]} */ list) => {
    for (const r of list) insert.run(r);
  });
  /** @type {(string | number | null)[][]} */
  const sample = [];
  return {
    /** @param {Cell[]} cells */
    add(cells) {
      const values = columns.map((c, i) => convert(cells[i], c));
      if (sample.length < 5) sample.push(values.map((v) => (typeof v === 'bigint' ? v.toString() : v)));
      batch.push(values);
      count++;
      if (batch.length >= 5000) {
        flush(batch);
        batch = [];
      }
    },
    /** @returns {TableMeta} */
    end() {
      if (batch.length) flush(batch);
      return {
        name: table,
        rows: count,
        columns: columns.map((c) => ({ name: c.name, type: c.type, ...(c.places !== undefined ? { places: c.places } : {}) })),
        sample,
      };
    },
  };
}

/** @param {CsvJob} job */
async function buildCsv({ path, name, out, textOut }) {
  const head = Buffer.alloc(65_536);
  const fd = fs.openSync(path, 'r');
  const got = fs.readSync(fd, head, 0, head.length, 0);
  fs.closeSync(fd);
  const encoding = encodingOf(head) ?? (isUtf8(path) ? 'utf-8' : 'windows-1252');
  const sample = new TextDecoder(encoding)
    .decode(head.subarray(0, got))
    .replace(/^\uFEFF/, '');
  const { delimiter, rows: sampleRows } = dialectOf(sample, name, got < head.length);
  if (sampleRows.length === 0) throw new Error('the file has no rows');
  const header = hasHeader(sampleRows.slice(0, 200));
  const width = Math.max(...sampleRows.map((r) => r.length));
  const names = columnNames(header ? sampleRows[0] : null, width);
  const options = { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, bom: true, from_line: header ? 2 : 1 };
  // A CSV that is not UTF-8 is kept as UTF-8 text too, for the context and the file tools.
  if (textOut) {
    const text = fs.createWriteStream(textOut);
    for await (const chunk of textStream(path, encoding))
      if (!text.write(chunk.replace(/^\uFEFF/, ''))) await drained(text);
    await ended(text);
  }
  // Pass one: every value's type.
  const guesses = names.map(() => new ColumnGuess());
  let extra = 0;
  for await (const row of streamRows(path, encoding, options)) {
    for (let i = 0; i < row.length; i++) {
      if (i < guesses.length) guesses[i].add(row[i]);
      else extra = Math.max(extra, row.length - guesses.length);
    }
  }
  // Rows wider than the sample's widest get columns of their own.
  for (let i = 0; i < extra; i++) guesses.push(new ColumnGuess());
  const allNames = extra ? columnNames(header ? sampleRows[0] : null, guesses.length) : names;
  // Where values allow both readings: a semicolon file is European (1.234,56; day first), a comma file American (month first).
  /** @type {Preference} */
  const prefer = { decimal: delimiter === ';' ? 'comma' : 'dot', dates: delimiter === ',' ? 'mdy' : 'dmy' };
  const columns = guesses.map((g, i) => ({ name: allNames[i], ...g.decide(prefer) }));
  // Pass two: the rows.
  const db = new Database(out);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  const table = writeTable(db, 'data', columns);
  for await (const row of streamRows(path, encoding, options)) table.add(row);
  const meta = table.end();
  db.close();
  return { tables: [meta], encoding, delimiter, header };
}

/**
 * @param {string} path @param {Encoding} encoding @param {import('csv-parse').Options} options
 * @returns {AsyncGenerator<string[]>}
 */
async function* streamRows(path, encoding, options) {
  const parser = parseCsv(options);
  const source = textStream(path, encoding);
  const pump = (async () => {
    try {
      for await (const text of source) if (!parser.write(text)) await new Promise((r) => parser.once('drain', r));
      parser.end();
    } catch (err) {
      parser.destroy(/** @type {Error} */ (err));
    }
  })();
  for await (const row of parser) yield row;
  await pump;
}

/** The sheets of an XLSX, each as rows of cells (read-excel-file; numbers kept as the text the file has, so decimals stay exact). */
/** @param {string} path @returns {Promise<Sheet[]>} */
async function xlsxSheets(path) {
  const { default: readXlsxFile } = await import('read-excel-file/node');
  const sheets = await readXlsxFile(fs.createReadStream(path), { parseNumber: (s) => s });
  return sheets.map((s) => ({ name: s.sheet, rows: /** @type {Cell[][]} */ (s.data) }));
}

/** The sheets of an ODS: content.xml read with saxes, repeated rows and cells expanded only up to the last one with content. */
/** @param {string} path @returns {Promise<Sheet[]>} */
async function odsSheets(path) {
  const JSZip = (await import('jszip')).default;
  const { SaxesParser } = await import('saxes');
  const zip = await JSZip.loadAsync(fs.readFileSync(path));
  const content = zip.file('content.xml');
  if (!content) throw new Error('it is not an OpenDocument spreadsheet (no content.xml)');
  /** @type {Sheet[]} */
  const sheets = [];
  /** @type {Sheet | null} */
  let sheet = null;
  /** @type {Cell[] | null} */
  let row = null;
  let rowRepeat = 1;
  /** @type {{ value: string | null; text: string; repeat: number } | null} */
  let cell = null;
  let pendingRows = 0;
  let paragraph = 0;
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => {
    const a = /** @type {Record<string, string | undefined>} */ (tag.attributes);
    if (tag.name === 'table:table') sheet = { name: a['table:name'] ?? `Sheet${sheets.length + 1}`, rows: [] };
    else if (tag.name === 'table:table-row' && sheet) {
      row = [];
      rowRepeat = Math.min(Number(a['table:number-rows-repeated'] ?? 1) || 1, 1_000_000);
    } else if ((tag.name === 'table:table-cell' || tag.name === 'table:covered-table-cell') && row) {
      const type = a['office:value-type'];
      const value =
        type === 'float' || type === 'currency' || type === 'percentage'
          ? (a['office:value'] ?? null)
          : type === 'date'
            ? (a['office:date-value'] ?? null)
            : type === 'boolean'
              ? (a['office:boolean-value'] ?? null)
              : null;
      cell = { value, text: '', repeat: Math.min(Number(a['table:number-columns-repeated'] ?? 1) || 1, 100_000) };
    } else if (tag.name === 'text:p' && cell) {
      if (paragraph++ > 0) cell.text += '\n';
    } else if (tag.name === 'text:s' && cell) cell.text += ' '.repeat(Math.min(Number(a['text:c'] ?? 1) || 1, 1000));
    else if ((tag.name === 'text:tab' || tag.name === 'text:line-break') && cell) cell.text += tag.name === 'text:tab' ? '\t' : '\n';
  });
  parser.on('text', (t) => {
    if (cell) cell.text += t;
  });
  parser.on('closetag', (tag) => {
    if ((tag.name === 'table:table-cell' || tag.name === 'table:covered-table-cell') && row && cell) {
      const v = cell.value ?? (cell.text === '' ? null : cell.text);
      for (let i = 0; i < cell.repeat; i++) row.push(v);
      cell = null;
      paragraph = 0;
    } else if (tag.name === 'table:table-row' && sheet && row) {
      while (row.length && row[row.length - 1] === null) row.pop();
      if (row.length === 0) pendingRows += rowRepeat;
      else {
        // Empty rows between rows with content are kept (up to a point); trailing ones never are.
        for (let i = 0; i < Math.min(pendingRows, 10_000); i++) sheet.rows.push([]);
        pendingRows = 0;
        for (let i = 0; i < rowRepeat; i++) sheet.rows.push(row);
      }
      row = null;
    } else if (tag.name === 'table:table' && sheet) {
      sheets.push(sheet);
      sheet = null;
      pendingRows = 0;
    }
  });
  await new Promise((/** @type {(value?: unknown) => void} */ resolve, reject) => {
    parser.on('error', reject);
    content
      .nodeStream('nodebuffer')
      .on('data', (/** @type {Buffer} */ chunk) => {
        try {
          parser.write(chunk.toString('utf8'));
        } catch (err) {
          reject(err);
        }
      })
      .on('end', () => {
        try {
          parser.close();
          resolve();
        } catch (err) {
          reject(err);
        }
      })
      .on('error', reject);
  });
  return sheets;
}

/** @param {Cell} v @returns {string} */
const cellText = (v) =>
  v === null || v === undefined
    ? ''
    : v instanceof Date
      ? v
          .toISOString()
          .replace(/T00:00:00\.000Z$/, '')
          .replace('T', ' ')
          .replace(/\.000Z$/, '')
      : String(v);

/** A spreadsheet's sheets as tables (each named as its sheet; the first is also `data`), and as text. */
/** @param {SheetsJob} job */
async function buildSheets({ path, kind, out, textOut }) {
  const sheets = (kind === 'ods' ? await odsSheets(path) : await xlsxSheets(path)).filter((s) =>
    s.rows.some((r) => r.some((c) => cellText(c).trim())),
  );
  if (sheets.length === 0) throw new Error('the spreadsheet has no cells with content');
  const db = new Database(out);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  /** @type {TableMeta[]} */
  const tables = [];
  const text = fs.createWriteStream(textOut);
  const taken = new Set(['data']);
  for (const sheet of sheets) {
    const rows = sheet.rows.map((r) => r.map(cellText));
    while (rows.length && rows[0].every((c) => !c.trim())) rows.shift();
    const header = hasHeader(rows.slice(0, 200));
    const width = Math.max(...rows.map((r) => r.length));
    const names = columnNames(header ? rows[0] : null, width);
    const body = header ? rows.slice(1) : rows;
    const guesses = names.map(() => new ColumnGuess());
    for (const r of body) r.forEach((c, i) => guesses[i]?.add(c));
    const columns = guesses.map((g, i) => ({ name: names[i], ...g.decide({ decimal: 'dot', dates: 'dmy' }) }));
    let table = sheet.name.replace(/\s+/g, ' ').trim().slice(0, 100) || `sheet${tables.length + 1}`;
    while (taken.has(table.toLowerCase())) table = `${table}_${tables.length + 1}`;
    taken.add(table.toLowerCase());
    const writer = writeTable(db, table, columns);
    for (const r of body) writer.add(r);
    tables.push(writer.end());
    text.write(
      `${sheets.length > 1 || tables.length > 1 ? `## ${sheet.name}\n` : ''}${rows.map((r) => r.map((c) => c.replace(/[\t\n\r]+/g, ' ')).join('\t')).join('\n')}\n\n`,
    );
  }
  // The first sheet is also `data`, as a CSV's table is.
  db.exec(`CREATE VIEW data AS SELECT * FROM ${quote(tables[0].name)}`);
  db.close();
  await ended(text);
  return { tables };
}

// ---------- querying ----------

/** A value as an exact decimal: its digits as a BigInt and its places, or null when it is no number. */
/** @param {unknown} v @returns {Decimal | null} */
function decimalOf(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return { n: v, p: 0 };
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : null) : String(v).trim();
  if (s === null) return null;
  const m = s.match(/^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i);
  if (!m || (!m[2] && !m[3])) return null;
  let digits = `${m[2] ?? ''}${m[3] ?? ''}` || '0';
  let places = (m[3] ?? '').length - Number(m[4] ?? 0);
  if (places < 0) {
    digits += '0'.repeat(-places);
    places = 0;
  }
  return { n: BigInt(`${m[1] === '-' ? '-' : ''}${digits}`), p: places };
}

/** @param {Decimal} d @param {number} p */
const scaleTo = (d, p) => d.n * 10n ** BigInt(p - d.p);

/** @param {bigint} n @param {number} p */
function decimalText(n, p) {
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString().padStart(p + 1, '0');
  const text = p ? `${digits.slice(0, -p)}.${digits.slice(-p)}` : digits;
  return `${negative ? '-' : ''}${text}`.replace(/\.(\d*?)0+$/, (_all, /** @type {string} */ keep) => (keep ? `.${keep}` : ''));
}

/** A decimal result as SQLite gets it: a number when a double holds it exactly as written, else its text. */
/** @param {string} text */
function asValue(text) {
  const n = Number(text);
  return String(n) === text ? n : text;
}

/** sum, total and avg over exact decimals: sixteen cents added a thousand times is 160.00, not 159.99999999998. */
/** @param {import('better-sqlite3').Database} db */
function exactAggregates(db) {
  /** @returns {Aggregate} */
  const start = () => ({ sum: 0n, p: 0, count: 0, other: false });
  /** @param {Aggregate} s @param {unknown} v */
  const step = (s, v) => {
    if (v === null || v === undefined) return;
    const d = decimalOf(v);
    if (!d) {
      // Text that is no number counts as 0, as in SQLite's own sum.
      s.count++;
      return;
    }
    if (d.p > s.p) {
      s.sum *= 10n ** BigInt(d.p - s.p);
      s.p = d.p;
    }
    s.sum += scaleTo(d, s.p);
    s.count++;
  };
  db.aggregate('sum', { start, step, result: (/** @type {Aggregate} */ s) => (s.count === 0 ? null : asValue(decimalText(s.sum, s.p))) });
  db.aggregate('total', { start, step, result: (/** @type {Aggregate} */ s) => Number(decimalText(s.sum, s.p)) });
  db.aggregate('avg', {
    start,
    step,
    result: (/** @type {Aggregate} */ s) => {
      if (s.count === 0) return null;
      // Six places more than the values have, rounded half away from zero.
      const extra = 6;
      const scaled = s.sum * 10n ** BigInt(extra);
      const q = scaled / BigInt(s.count);
      const r = scaled % BigInt(s.count);
      const rounded = 2n * (r < 0n ? -r : r) >= BigInt(s.count) ? q + (scaled < 0n ? -1n : 1n) : q;
      return asValue(decimalText(rounded, s.p + extra));
    },
  });
}

/** What a query may be: one SELECT (or WITH … SELECT, or VALUES), nothing that writes, attaches or sets. */
/** @param {string} sql */
function refusal(sql) {
  const bare = sql.replace(/^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/, '');
  if (!/^(select|with|values)\b/i.test(bare))
    return 'only a single SELECT query is allowed (SELECT … or WITH … SELECT …); nothing that changes, attaches or sets anything';
  return null;
}

/** A cell as it may leave this process: text past `maxCell` characters cut, and said to be. */
/** @param {unknown} v @param {number} maxCell */
function shownCell(v, maxCell) {
  const c = typeof v === 'bigint' ? v.toString() : Buffer.isBuffer(v) ? `<${v.length} bytes>` : v;
  if (typeof c === 'string' && c.length > maxCell) return { cell: `${c.slice(0, maxCell)}… (cut: ${c.length} characters)`, cut: true };
  return { cell: c, cut: false };
}

/**
 * One query. What it gives back is bounded in size here, in the reader's own process: at most
 * `maxRows` rows, each cell at most `maxCell` characters, and at most `maxBytes` of rows in all;
 * every row is still counted. So a query that makes huge values (hex(randomblob(…)) over many
 * rows, asked for by a page or a file the model read) never sends more than the cap to the
 * server's own process, nor to the database.
 */
/** @param {QueryJob} job */
function query({ db: dbPath, sql, maxRows, maxBytes = 65_536, maxCell = 2_000 }) {
  const refused = refusal(sql);
  if (refused) return { ok: false, error: refused };
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  db.pragma('query_only = ON');
  exactAggregates(db);
  let stmt;
  try {
    stmt = db.prepare(sql);
  } catch (err) {
    return { ok: false, error: `the query is not valid SQL here: ${messageOf(err)}` };
  }
  if (!stmt.reader || !stmt.readonly) return { ok: false, error: refusal('') ?? 'only a SELECT query is allowed' };
  stmt.safeIntegers(false);
  const columns = stmt.columns().map((c) => c.name);
  /** @type {unknown[][]} */
  const rows = [];
  let total = 0;
  let bytes = 0;
  let cutCells = 0;
  let full = false;
  try {
    for (const row of /** @type {Iterable<unknown[]>} */ (stmt.raw(true).iterate())) {
      total++;
      if (full || rows.length >= maxRows) continue;
      const shown = row.map((v) => shownCell(v, maxCell));
      const cells = shown.map((s) => s.cut);
      const size = Buffer.byteLength(JSON.stringify(shown.map((s) => s.cell)));
      if (bytes + size > maxBytes) {
        full = true;
        continue;
      }
      bytes += size;
      cutCells += cells.filter(Boolean).length;
      rows.push(shown.map((s) => s.cell));
    }
  } catch (err) {
    return { ok: false, error: `the query failed: ${messageOf(err)}` };
  }
  db.close();
  return {
    ok: true,
    columns: columns.map((c) => shownCell(c, maxCell).cell),
    rows,
    total,
    cut: { cells: cutCells, bytes: full ? maxBytes : 0 },
  };
}

/** Once a stream that is full has room again. @param {fs.WriteStream} stream @returns {Promise<void>} */
function drained(stream) {
  return new Promise((resolve) => {
    stream.once('drain', () => resolve());
  });
}

/** A stream written to its end. @param {fs.WriteStream} stream @returns {Promise<void>} */
function ended(stream) {
  return new Promise((resolve, reject) => stream.end((/** @type {Error | null | undefined} */ err) => (err ? reject(err) : resolve())));
}

process.on('message', async (/** @type {TableJob} */ msg) => {
  try {
    /** @type {Record<string, unknown>} */
    let reply;
    if (msg.op === 'query') reply = query(msg);
    else {
      const built = msg.kind === 'csv' ? await buildCsv(msg) : await buildSheets(msg);
      // The reader's peak memory (resident, its SQLite included), for the bench.
      reply = { ok: true, ...built, peakMb: Math.round(process.resourceUsage().maxRSS / 1024) };
    }
    process.send?.(reply, () => process.exit(0));
  } catch (err) {
    process.send?.({ ok: false, error: messageOf(err) }, () => process.exit(0));
  }
});
