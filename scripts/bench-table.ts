import fs from 'node:fs';
import { pct } from './bench-library';

/**
 * `npm run bench`'s one table: each measure with its p50 and p95, the same measure taken on the
 * direct path (the request sent straight to the model server) where there is one, their ratio,
 * and the target. Targets live here, in the table, never in tests.
 */
export type BenchRow = {
  measure: string;
  unit: string;
  p50: number | null;
  p95: number | null;
  direct?: { p50: number; p95: number };
  target?: string;
  /** Whether the target is met; undefined when there is no target. */
  met?: boolean;
};

export class BenchTable {
  readonly rows: BenchRow[] = [];

  add(row: BenchRow): void {
    this.rows.push(row);
  }

  /** A row from samples. */
  sample(measure: string, unit: string, values: number[], extra: Omit<BenchRow, 'measure' | 'unit' | 'p50' | 'p95'> = {}): BenchRow {
    const row = { measure, unit, p50: values.length ? pct(values, 50) : null, p95: values.length ? pct(values, 95) : null, ...extra };
    this.add(row);
    return row;
  }

  print(): void {
    const n = (v: number | null | undefined) =>
      v === null || v === undefined ? '–' : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toFixed(3);
    const lines = this.rows.map((r) => [
      r.measure,
      r.unit,
      n(r.p50),
      n(r.p95),
      r.direct ? n(r.direct.p50) : '',
      r.direct ? n(r.direct.p95) : '',
      r.direct && r.p50 !== null && r.direct.p50 > 0 ? `${(r.p50 / r.direct.p50).toFixed(2)}×` : '',
      r.target ? `${r.target}${r.met === undefined ? '' : r.met ? ' ✓' : ' ✗'}` : '',
    ]);
    const head = ['measure', 'unit', 'p50', 'p95', 'direct p50', 'direct p95', 'ratio', 'target'];
    const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
    const fmt = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    console.log(`\n${fmt(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
    for (const l of lines) console.log(fmt(l));
  }

  write(file: string): void {
    fs.writeFileSync(file, `${JSON.stringify({ tool: 'hearth-bench', at: new Date().toISOString(), rows: this.rows }, null, 2)}\n`);
    console.log(`\nWrote ${file}`);
  }

  /** Every row with a target meets it. */
  get allMet(): boolean {
    return this.rows.every((r) => r.met !== false);
  }
}
