import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { odsBytes, xlsxBytes, type Cell } from '@/lib/dev/testing/sheets';
import { buildTable, describeTable, queryTable, tableFormat, TABLE_LIMITS, type TableMeta } from './tables';

/**
 * Tables from attached files and read-only queries over them, through the reader's own
 * process: the odd files people attach (semicolons and decimal commas, quoted line breaks, a
 * BOM, empty cells, Windows-1252 and UTF-16, currency signs, dates both ways round), Excel and
 * OpenDocument sheets, sums exact to the cent, and queries that must not run.
 */

const dir = makeTempDir('hearth-tables');
let n = 0;
async function table(name: string, bytes: string | Buffer, format = tableFormat(name, '')!): Promise<{ meta: TableMeta; db: string }> {
  const source = path.join(dir, `${++n}-${name}`);
  fs.writeFileSync(source, bytes);
  const db = path.join(dir, `${n}.db`);
  const meta = await buildTable({ source, format, name, db, textOut: format === 'csv' ? undefined : path.join(dir, `${n}.txt`) });
  return { meta, db };
}
const q = async (db: string, sql: string, maxRows = 50) => queryTable({ db, sql, maxRows });
const columns = (meta: TableMeta, i = 0) =>
  meta.tables[i].columns.map((c) => `${c.name}:${c.type}${c.places !== undefined ? c.places : ''}`);

/** 2,000 transactions with amounts in cents that binary floating point cannot add exactly. */
function transactions() {
  const rows: { day: number; payee: string; category: string; cents: number }[] = [];
  for (let i = 0; i < 2000; i++) {
    rows.push({
      day: (i % 28) + 1,
      payee: `Shop ${i}`,
      category: ['groceries', 'rent', 'travel', 'fun'][i % 4],
      cents: ((i * 7919) % 20_011) - 9_000 + 0.0,
    });
  }
  const total = rows.reduce((s, r) => s + BigInt(r.cents), 0n);
  return { rows, total };
}
const euros = (cents: bigint | number) => {
  const c = BigInt(cents);
  const neg = c < 0n;
  const a = neg ? -c : c;
  return `${neg ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
};

describe('reading a CSV', () => {
  test('a European bank export: semicolons, decimal commas, thousands dots, € signs, a BOM, CRLF, quoted line breaks and empty cells; the sum is exact to the cent', async () => {
    const { rows, total } = transactions();
    const lines = ['Datum;Empfänger;Kategorie;Betrag;Notiz'];
    for (const r of rows) {
      const amount = euros(r.cents)
        .replace('.', ',')
        .replace(/^(-?\d)(\d{3}),/, '$1.$2,');
      lines.push(
        `${String(r.day).padStart(2, '0')}.03.2025;"${r.payee}\nFiliale";${r.category};${amount} €;${r.day % 5 === 0 ? '' : 'ok'}`,
      );
    }
    const { meta, db } = await table('konto.csv', `\uFEFF${lines.join('\r\n')}\r\n`);
    assert.equal(meta.delimiter, ';');
    assert.equal(meta.tables[0].rows, 2000);
    assert.deepEqual(columns(meta), ['Datum:date', 'Empfänger:text', 'Kategorie:text', 'Betrag:decimal2', 'Notiz:text']);
    assert.deepEqual(meta.tables[0].sample[0], ['2025-03-01', 'Shop 0\nFiliale', 'groceries', -90, 'ok']);
    const sum = await q(db, 'SELECT sum(Betrag), total(Betrag), count(Notiz), count(*) FROM data');
    const notes = rows.filter((r) => r.day % 5 !== 0).length;
    assert.deepEqual(sum.rows, [[Number(euros(total)), Number(euros(total)), notes, 2000]], 'empty cells are NULL');
    // What binary floating point would have said: not the exact cents.
    const float = rows.reduce((s, r) => s + r.cents / 100, 0);
    assert.notEqual(String(float), euros(total), 'the data is such that a float sum is off');
    const grouped = await q(db, 'SELECT Kategorie, count(*) AS n, sum(Betrag) FROM data GROUP BY Kategorie ORDER BY Kategorie');
    const exact = (cat: string) => Number(euros(rows.filter((r) => r.category === cat).reduce((s, r) => s + BigInt(r.cents), 0n)));
    assert.deepEqual(grouped.columns, ['Kategorie', 'n', 'sum(Betrag)']);
    assert.deepEqual(
      grouped.rows,
      ['fun', 'groceries', 'rent', 'travel'].map((c) => [c, 500, exact(c)]),
    );
    const march = await q(db, "SELECT count(*) FROM data WHERE Datum BETWEEN '2025-03-01' AND '2025-03-07'");
    assert.deepEqual(march.rows, [[rows.filter((r) => r.day <= 7).length]], 'dates compare as ISO dates');
  });

  test('Windows-1252 and UTF-16 (what Excel writes), tabs, US dates and currency in front, negatives in parentheses, codes with leading zeros', async () => {
    const latin = Buffer.from('Name,Ort,Betrag\nMüller,Köln,"1,234.50"\nJosé,Málaga,-0.75\n', 'latin1');
    const a = await table('latin.csv', latin);
    assert.equal(a.meta.encoding, 'windows-1252');
    assert.deepEqual(a.meta.tables[0].sample, [
      ['Müller', 'Köln', 1234.5],
      ['José', 'Málaga', -0.75],
    ]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('City\tTemp\nOslo\t-3.5\nRoma\t14\n', 'utf16le')]);
    const b = await table('temps.tsv', utf16);
    assert.equal(b.meta.encoding, 'utf-16le');
    assert.deepEqual(columns(b.meta), ['City:text', 'Temp:decimal1']);
    const c = await table('us.csv', 'Date,Item,Amount,Zip\n03/14/2025,Coffee,$4.50,02139\n12/01/2025,Refund,($12.00),00501\n');
    assert.deepEqual(columns(c.meta), ['Date:date', 'Item:text', 'Amount:decimal2', 'Zip:text']);
    assert.deepEqual(c.meta.tables[0].sample, [
      ['2025-03-14', 'Coffee', 4.5, '02139'],
      ['2025-12-01', 'Refund', -12, '00501'],
    ]);
    assert.deepEqual((await q(c.db, 'SELECT sum(Amount) FROM data')).rows, [[-7.5]]);
  });

  test('no header: columns are numbered; a row longer than the rest gets a column of its own', async () => {
    const { meta, db } = await table('raw.csv', '1,2.5\n2,3.25\n3,4,extra\n');
    assert.equal(meta.header, false);
    assert.deepEqual(columns(meta), ['column1:integer', 'column2:decimal2', 'column3:text']);
    assert.deepEqual((await q(db, 'SELECT sum(column2), avg(column2) FROM data')).rows, [[9.75, 3.25]]);
  });

  test('a header whose names repeat or are empty: each named apart', async () => {
    const { meta } = await table('names.csv', 'Amount,amount,,Note\n1,2,3,x\n4,5,6,y\n');
    assert.deepEqual(
      meta.tables[0].columns.map((c) => c.name),
      ['Amount', 'amount_2', 'column3', 'Note'],
    );
  });
});

describe('reading spreadsheets', () => {
  const sheet = (): Cell[][] => {
    const rows: Cell[][] = [['Date', 'Payee', 'Category', 'Amount']];
    for (const r of transactions().rows) rows.push([new Date(Date.UTC(2025, 2, r.day)), r.payee, r.category, Number(euros(r.cents))]);
    return rows;
  };

  test('an XLSX with two sheets: each a table named as its sheet, the first also data; dates as dates; the sum exact', async () => {
    const { meta, db } = await table(
      'statement.xlsx',
      await xlsxBytes([
        { name: 'March 2025', rows: sheet() },
        { name: 'Notes', rows: [['Note'], ['checked']] },
      ]),
    );
    assert.deepEqual(
      meta.tables.map((t) => [t.name, t.rows]),
      [
        ['March 2025', 2000],
        ['Notes', 1],
      ],
    );
    assert.deepEqual(columns(meta), ['Date:date', 'Payee:text', 'Category:text', 'Amount:decimal2']);
    const { total } = transactions();
    assert.deepEqual((await q(db, 'SELECT sum(Amount) FROM data')).rows, [[Number(euros(total))]]);
    assert.deepEqual((await q(db, 'SELECT count(*) FROM "March 2025" WHERE Category = \'rent\'')).rows, [[500]]);
    const text = fs.readFileSync(path.join(dir, `${n}.txt`), 'utf8');
    assert.match(text, /^## March 2025\nDate\tPayee\tCategory\tAmount\n2025-03-01\tShop 0\tgroceries\t-90\n/);
    assert.match(text, /## Notes\nNote\nchecked\n/);
  });

  test('an ODS as LibreOffice saves it (a million empty rows repeated at the end): the rows with content, the sum exact', async () => {
    const { meta, db } = await table('statement.ods', await odsBytes([{ name: 'Konto', rows: sheet() }]));
    assert.deepEqual(
      meta.tables.map((t) => [t.name, t.rows]),
      [['Konto', 2000]],
    );
    const { total } = transactions();
    assert.deepEqual((await q(db, 'SELECT sum(Amount), min(Date), max(Date) FROM data')).rows, [
      [Number(euros(total)), '2025-03-01', '2025-03-28'],
    ]);
  });

  test('a zip that is no spreadsheet is refused with the reason', async () => {
    await assert.rejects(table('fake.ods', await xlsxBytes([{ name: 'x', rows: [['a']] }])), /no content\.xml/);
  });
});

describe('queries', () => {
  test('anything but one SELECT is refused and changes nothing: DROP, DELETE, ATTACH, PRAGMA, two statements', async () => {
    const { db } = await table('t.csv', 'a,b\n1,x\n2,y\n');
    for (const sql of [
      'DROP TABLE data',
      'DELETE FROM data',
      "ATTACH DATABASE '/tmp/other.db' AS other",
      'PRAGMA writable_schema = ON',
      'SELECT 1; DROP TABLE data',
    ]) {
      await assert.rejects(q(db, sql), /only a single SELECT|more than one statement/, sql);
    }
    // A SELECT that tries to write through a CTE is still refused by SQLite itself on a read-only file.
    await assert.rejects(q(db, 'WITH x AS (SELECT 1) DELETE FROM data'), /only a single SELECT|readonly|read-only/i);
    // No function reaches a file: extensions cannot be loaded, and there is no readfile or writefile.
    await assert.rejects(q(db, "SELECT load_extension('/tmp/evil.so')"), /not authorized|query failed/);
    await assert.rejects(q(db, "SELECT readfile('/etc/passwd')"), /no such function: readfile/);
    assert.deepEqual((await q(db, 'SELECT count(*), sum(a) FROM data')).rows, [[2, 3]], 'the table is whole');
  });

  test('rows are capped and counted; a query that never ends is stopped at its deadline', async () => {
    const { db } = await table('n.csv', `n\n${Array.from({ length: 300 }, (_, i) => i + 1).join('\n')}\n`);
    const capped = await q(db, 'SELECT n FROM data ORDER BY n', 10);
    assert.equal(capped.rows.length, 10);
    assert.equal(capped.total, 300);
    const started = Date.now();
    await assert.rejects(
      queryTable({
        db,
        sql: 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r',
        maxRows: 5,
        limits: { ...TABLE_LIMITS, queryMs: 800 },
      }),
      /ran longer than 0\.8 s and was stopped/,
    );
    assert.ok(Date.now() - started < 5_000, 'stopped near its deadline');
  });

  test('a result is bounded in size inside the reader: cells cut at 2,000 characters, rows stop at 64 KB, all still counted', async () => {
    const { db } = await table('big.csv', `n\n${Array.from({ length: 60 }, (_, i) => i + 1).join('\n')}\n`);
    // What the tester asked for: 60 rows of 6 MB each (hex of 3 MB), 360 MB had it crossed whole.
    const huge = await q(db, 'SELECT n, hex(randomblob(3000000)) AS blob FROM data ORDER BY n', 50);
    assert.equal(huge.total, 60, 'every row is counted');
    assert.deepEqual(huge.cut, { cells: huge.rows.length, bytes: 65_536 });
    assert.ok(huge.rows.length > 0 && huge.rows.length < 50, `${huge.rows.length} rows shown`);
    assert.ok(Buffer.byteLength(JSON.stringify(huge.rows)) <= 65_536, 'at most 64 KB of rows');
    const cell = huge.rows[0][1] as string;
    assert.match(cell, /^[0-9A-F]{2000}… \(cut: 6000000 characters\)$/);
    assert.deepEqual(
      huge.rows.map((r) => r[0]),
      Array.from({ length: huge.rows.length }, (_, i) => i + 1),
      'the first rows, in order',
    );
    // A result under the caps is given whole and says nothing was cut.
    assert.deepEqual((await q(db, 'SELECT count(*) FROM data')).cut, { cells: 0, bytes: 0 });
  });

  test('sums are exact decimals, averages exact to six places more than the values; no rows: sum is NULL, total 0', async () => {
    const { db } = await table('avg.csv', 'v\n0.10\n0.20\n0.40\n');
    assert.deepEqual((await q(db, 'SELECT sum(v), avg(v), total(v) FROM data')).rows, [[0.7, 0.2333333, 0.7]]);
    assert.notEqual(0.1 + 0.2 + 0.4, 0.7, 'where floating point is not');
    assert.deepEqual((await q(db, 'SELECT sum(v), total(v), avg(v) FROM data WHERE v > 1')).rows, [[null, 0, null]]);
  });

  test('the description a model reads: name, rows, typed columns (quoted where they need it), first rows', async () => {
    const { meta } = await table('d.csv', 'Booking date;Amount (EUR)\n01.02.2025;1,50\n');
    assert.equal(
      describeTable(meta.tables[0]),
      'table data: 1 row; columns "Booking date" (date), "Amount (EUR)" (decimal, 2 places)\n  first rows:\n  2025-02-01 | 1.5',
    );
  });
});
