/**
 * `npm run eval`: the model scorecard. Runs every scenario (lib/dev/eval/scenarios) through
 * Hearth's real engine against each model server in turn, with local stand-ins for the web,
 * and writes scorecard.json, scorecard.md and scorecard.html.
 *
 *   npm run eval -- --url http://127.0.0.1:8080/v1 [--name qwen3-8b] [--url … --name …]
 *                   [--scenarios DIR] [--out DIR] [--repeat N] [--only id,id] [--api-key KEY]
 *   npm run eval -- --compare runA/scorecard.json runB/scorecard.json [--out DIR]
 *   npm run eval -- --gate [drafts.jsonl] --url http://127.0.0.1:8080/v1 [--model ID …] [--limit N] [--out DIR]
 *
 * --gate measures the gate's judges instead (lib/dev/eval/gate-eval.ts): the verdict and the
 * freshness check of each model a server offers (or those named with --model) over the project's
 * labelled drafts or the JSON Lines file given, with recall and precision per language and the
 * time per judgement, written as gate.json beside the scorecards (the model picker shows it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildReport, compareReports, toHtml, toMarkdown, type EvalReport } from '../lib/dev/eval/report';
import { corpusItems, describeGateReport, judgeGate, parseGateItems, type GateReport } from '../lib/dev/eval/gate-eval';
import { createLlamaClient } from '../lib/models/client';
import { listModels } from '../lib/models/models';
import { runScenario, type ServerUnderTest } from '../lib/dev/eval/runner';
import { loadScenarios, SCENARIOS_DIR } from '../lib/dev/eval/scenario';
import { scoreRun, type Score } from '../lib/dev/eval/score';
import { startStandins } from '../lib/dev/eval/standins';
import { makeTempDir } from '../lib/dev/testing/temp-dir';

const argv = process.argv.slice(2);
const all = (flag: string) => argv.flatMap((a, i) => (a === flag && argv[i + 1] ? [argv[i + 1]] : []));
const one = (flag: string) => all(flag)[0];
const stamp = new Date().toISOString().replace(/[:]/g, '').replace(/\..*$/, '');
const out = path.resolve(one('--out') ?? path.join('eval-results', stamp));

function write(report: EvalReport) {
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'scorecard.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(out, 'scorecard.md'), toMarkdown(report));
  fs.writeFileSync(path.join(out, 'scorecard.html'), toHtml(report));
  console.log(`\nWrote ${path.join(out, 'scorecard.{json,md,html}')}`);
  for (const s of report.summaries) {
    console.log(
      `  ${s.model}: ${s.met}/${s.total} expectations met, ${s.completed}/${s.runs} runs completed, ${s.deferralsLeft} deferrals left, ${s.inventedTools} invented tools, ${s.gateNudges} gate nudges`,
    );
  }
}

if (argv.includes('--compare')) {
  const files = argv.slice(argv.indexOf('--compare') + 1).filter((a) => !a.startsWith('--') && a !== one('--out'));
  if (files.length < 2) {
    console.error('--compare needs two or more scorecard.json files.');
    process.exit(1);
  }
  const reports = files.map((f) => ({
    label: path.basename(path.dirname(path.resolve(f))),
    report: JSON.parse(fs.readFileSync(f, 'utf8')) as EvalReport,
  }));
  for (const { label, report } of reports) {
    if (report.tool !== 'hearth-eval') {
      console.error(`${label}: not a Hearth scorecard.`);
      process.exit(1);
    }
  }
  write(compareReports(reports));
  process.exit(0);
}

if (argv.includes('--gate')) {
  const urls = all('--url');
  if (urls.length === 0) {
    console.error('Give a model server: npm run eval -- --gate [drafts.jsonl] --url http://127.0.0.1:8080/v1 [--model ID]');
    process.exit(1);
  }
  const fileArg = argv[argv.indexOf('--gate') + 1];
  const file = fileArg && !fileArg.startsWith('--') ? path.resolve(fileArg) : undefined;
  let items;
  try {
    items = file ? parseGateItems(fs.readFileSync(file, 'utf8')) : corpusItems();
  } catch (err) {
    console.error(`${file ?? 'the corpus'}: ${(err as Error).message}`);
    process.exit(1);
  }
  const limit = Number(one('--limit') ?? 0);
  if (limit > 0) items = items.slice(0, limit);
  const apiKey = one('--api-key');
  const report: GateReport = {
    tool: 'hearth-gate-eval',
    version: 1,
    finishedAt: '',
    set: file ? path.basename(file) : 'the project’s labelled drafts',
    models: [],
  };
  for (const url of urls) {
    const named = all('--model');
    const offered = named.length ? named : (await listModels([url], { apiKey })).models.map((m) => m.id);
    if (offered.length === 0) {
      console.error(`${url}: no model listed (is the server up?)`);
      process.exit(1);
    }
    for (const model of offered) {
      const client = createLlamaClient({ baseURL: url, apiKey, model, timeoutMs: 120_000 });
      const judged = await judgeGate(client, model, items, (n) => {
        if (n % 25 === 0 || n === items.length) process.stderr.write(`${model}: ${n}/${items.length}\n`);
      });
      report.models.push(judged);
    }
  }
  report.finishedAt = new Date().toISOString();
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'gate.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(describeGateReport(report));
  console.log(`\nWrote ${path.join(out, 'gate.json')}`);
  process.exit(0);
}

const urls = all('--url');
if (urls.length === 0) {
  console.error('Give at least one model server: npm run eval -- --url http://127.0.0.1:8080/v1 [--name NAME]');
  process.exit(1);
}
const names = all('--name');
const servers: ServerUnderTest[] = urls.map((url, i) => ({ url, name: names[i] ?? new URL(url).host, apiKey: one('--api-key') }));
const repeat = Math.max(1, Math.min(20, Number(one('--repeat') ?? 1) || 1));
let scenarios = loadScenarios(path.resolve(one('--scenarios') ?? SCENARIOS_DIR));
const only = one('--only')?.split(',');
if (only) scenarios = scenarios.filter((s) => only.includes(s.id));

const standins = await startStandins();
const startedAt = new Date();
const scores: Score[] = [];
const models: EvalReport['models'] = [];
const total = servers.length * scenarios.length * repeat;
let done = 0;
const t0 = performance.now();

function progress(label: string) {
  const width = 30;
  const filled = Math.round((done / total) * width);
  const eta = done ? ((performance.now() - t0) / done) * (total - done) : 0;
  const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${label}${done ? ` · ~${Math.ceil(eta / 1000)} s left` : ''}`;
  if (process.stderr.isTTY)
    process.stderr.write(
      `\r${line.slice(0, process.stderr.columns ? process.stderr.columns - 1 : 120).padEnd(Math.min(120, (process.stderr.columns ?? 121) - 1))}`,
    );
  else process.stderr.write(`${line}\n`);
}

try {
  for (const server of servers) {
    let modelId: string | undefined;
    for (const scenario of scenarios) {
      for (let r = 1; r <= repeat; r++) {
        progress(`${server.name} · ${scenario.id}`);
        const run = await runScenario({ server, scenario, standins, repeat: r, dataDir: makeTempDir('hearth-eval') });
        modelId ??= run.modelId;
        scores.push(scoreRun(scenario, run));
        done++;
      }
    }
    models.push({ name: server.name, url: server.url, ...(modelId ? { modelId } : {}) });
  }
  progress('done');
  process.stderr.write('\n');
  write(buildReport({ startedAt, repeat, models, scenarios, scores }));
} finally {
  await standins.close();
}
process.exit(0);
