/**
 * A large attached table, for `npm run bench`: a generated CSV bank statement of
 * BENCH_TABLE_MB megabytes (default 200; semicolons, decimal commas, quoted payees) read into
 * its table by the reader's own process, with the time it took and that process's peak
 * resident memory (SQLite's included), then an exact sum over every row and a grouped count,
 * timed. The sum is checked against the total kept while the file was written.
 *
 * Run alone: `node --conditions=react-server --import tsx scripts/bench-tables.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { buildTable, queryTable } from '../lib/data/tables/tables';
import { makeTempDir } from '../lib/dev/testing/temp-dir';

export type TableBench = {
  megabytes: number;
  rows: number;
  buildSeconds: number;
  peakMb: number;
  sumMs: number;
  groupMs: number;
  exact: boolean;
};

export async function measureTable(megabytes = Number(process.env.BENCH_TABLE_MB ?? 200)): Promise<TableBench> {
  const dir = makeTempDir('hearth-bench-table');
  const file = path.join(dir, 'statement.csv');
  const out = fs.createWriteStream(file);
  out.write('Date;Payee;Category;Amount\n');
  let bytes = 0;
  let rows = 0;
  let cents = 0n;
  const categories = ['groceries', 'rent', 'travel', 'fun', 'health'];
  while (bytes < megabytes * 1024 * 1024) {
    const c = ((rows * 7919) % 200_011) - 90_000;
    cents += BigInt(c);
    const a = Math.abs(c);
    const line = `${String((rows % 28) + 1).padStart(2, '0')}.${String((rows % 12) + 1).padStart(2, '0')}.2025;"Shop ${rows % 5000}";${categories[rows % 5]};${c < 0 ? '-' : ''}${Math.floor(a / 100)},${String(a % 100).padStart(2, '0')}\n`;
    bytes += Buffer.byteLength(line);
    rows++;
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve) => out.end(resolve));
  const db = path.join(dir, 'statement.db');
  const t0 = performance.now();
  const meta = await buildTable({ source: file, format: 'csv', name: 'statement.csv', db });
  const buildSeconds = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  const sum = await queryTable({ db, sql: 'SELECT sum(Amount) FROM data', maxRows: 1 });
  const sumMs = performance.now() - t1;
  const t2 = performance.now();
  await queryTable({ db, sql: 'SELECT Category, count(*), sum(Amount) FROM data GROUP BY Category', maxRows: 10 });
  const groupMs = performance.now() - t2;
  const a = cents < 0n ? -cents : cents;
  const expected = `${cents < 0n ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`.replace(/\.?0+$/, '');
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    megabytes: bytes / 1024 / 1024,
    rows: meta.tables[0].rows,
    buildSeconds,
    peakMb: meta.peakMb ?? 0,
    sumMs,
    groupMs,
    exact: String(sum.rows[0][0]) === expected && meta.tables[0].rows === rows,
  };
}

export function describeTableBench(t: TableBench): string {
  return `table: a ${t.megabytes.toFixed(0)} MB CSV (${t.rows.toLocaleString('en')} rows) read in ${t.buildSeconds.toFixed(1)} s, reader peak ${t.peakMb} MB; exact sum over every row in ${t.sumMs.toFixed(0)} ms (${t.exact ? 'to the cent' : 'WRONG'}), grouped count and sum in ${t.groupMs.toFixed(0)} ms`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(describeTableBench(await measureTable()));
}
