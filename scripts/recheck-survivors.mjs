/**
 * Re-checks the survivors of the last mutation run against the tests as they are now, without a
 * full Stryker run (which takes an hour for a folder on 2 cores):
 *
 *   npm run test:mutation:recheck -- lib/tools/web.ts -- lib/tools/web*.test.ts
 *
 * For each mutant of that file the report lists as survived or not covered, the file is written
 * with the mutant in place, the given test files run, and the file is put back. A mutant on a line
 * marked `// Stryker disable next-line <its mutator>` is skipped, as Stryker would. When the file
 * changed since the run, each mutant is found by the text of its line (a mutant whose line is gone
 * is reported as gone). This is a quick check while writing tests; the figures in the README come
 * from Stryker runs.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const args = process.argv.slice(2);
const split = args.indexOf('--');
const [file, ...rest] = split === -1 ? args : args.slice(0, split);
const tests = split === -1 ? [] : args.slice(split + 1);
const reportPath = rest[0] ?? 'reports/mutation/stryker-incremental.json';
if (!file || tests.length === 0) {
  console.error('usage: npm run test:mutation:recheck -- <file.ts> [report.json] -- <test files…>');
  process.exit(2);
}

const report = JSON.parse(fs.readFileSync(reportPath, 'utf8'));
const entry = report.files[file];
if (!entry) {
  console.error(`${reportPath} has no mutants of ${file}`);
  process.exit(2);
}

const original = fs.readFileSync(file, 'utf8');
const restore = () => fs.writeFileSync(file, original);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    restore();
    process.exit(130);
  });
}

const lines = original.split('\n');
const lineStarts = [0];
for (const line of lines) lineStarts.push(lineStarts.at(-1) + line.length + 1);
const reportedLines = entry.source.split('\n');
const unchanged = entry.source === original;

/** Where the mutant's first line is now (1-based), or null when its text is no longer in the file. */
function lineNow(location) {
  if (unchanged) return location.start.line;
  const span = location.end.line - location.start.line + 1;
  const text = reportedLines.slice(location.start.line - 1, location.end.line).join('\n');
  let best = null;
  for (let i = 0; i + span <= lines.length; i++) {
    if (lines.slice(i, i + span).join('\n') !== text) continue;
    if (best === null || Math.abs(i + 1 - location.start.line) < Math.abs(best - location.start.line)) best = i + 1;
  }
  return best;
}

const counts = { killed: 0, timeout: 0, survived: 0, skipped: 0, gone: 0 };
try {
  for (const mutant of entry.mutants) {
    if (mutant.status !== 'Survived' && mutant.status !== 'NoCoverage') continue;
    const { location } = mutant;
    const line = lineNow(location);
    const label = `${file}:${line ?? location.start.line} ${mutant.mutatorName} => ${JSON.stringify(mutant.replacement).slice(0, 70)}`;
    if (line === null) {
      counts.gone++;
      console.log(`gone      ${label}`);
      continue;
    }
    const marked = /Stryker disable next-line ([\w,]+)/.exec(lines[line - 2] ?? '');
    if (marked && (marked[1] === 'all' || marked[1].split(',').includes(mutant.mutatorName))) {
      counts.skipped++;
      console.log(`marked    ${label}`);
      continue;
    }
    const shift = line - location.start.line;
    const from = lineStarts[location.start.line - 1 + shift] + location.start.column - 1;
    const to = lineStarts[location.end.line - 1 + shift] + location.end.column - 1;
    fs.writeFileSync(file, original.slice(0, from) + mutant.replacement + original.slice(to));
    const run = spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', '--test', ...tests], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    restore();
    const outcome = run.error ? 'timeout' : run.status === 0 ? 'survived' : 'killed';
    counts[outcome]++;
    console.log(`${outcome.padEnd(9)} ${label}`);
  }
} finally {
  restore();
}
console.log(
  `${counts.survived} survived, ${counts.killed} killed, ${counts.timeout} timed out, ${counts.skipped} marked equivalent, ${counts.gone} gone`,
);
process.exit(counts.survived > 0 ? 1 : 0);
