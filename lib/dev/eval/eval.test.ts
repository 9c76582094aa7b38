import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { deferringModel } from '@/e2e/double/deferring';
import { buildReport, compareReports, toHtml, toMarkdown, type EvalReport } from './report';
import { runScenario } from './runner';
import { loadScenarios, SCENARIOS_DIR, scenarioSchema } from './scenario';
import { listedTitles, scoreRun, SUMMED, AVERAGED, type Score } from './score';
import { startStandins, type Standins } from './standins';

/**
 * The scorecard against the double: every shipped scenario runs to its end through the real
 * engine for two scripted models, the three reports have their structure, and the model that
 * looks things up scores better than the one that only offers to.
 */

let good: LlamaDouble;
let deferring: LlamaDouble;
let standins: Standins;
let report: EvalReport;

before(async () => {
  [good, deferring, standins] = await Promise.all([
    startLlamaDouble({ metrics: true }),
    startLlamaDouble({ script: deferringModel }),
    startStandins(),
  ]);
  const scenarios = loadScenarios(SCENARIOS_DIR);
  const scores: Score[] = [];
  const servers = [
    { name: 'persona', url: good.url },
    { name: 'deferring', url: deferring.url },
  ];
  for (const server of servers) {
    for (const scenario of scenarios) {
      scores.push(scoreRun(scenario, await runScenario({ server, scenario, standins, repeat: 1, dataDir: makeTempDir('hearth-eval') })));
    }
  }
  report = buildReport({ startedAt: new Date(), repeat: 1, models: servers, scenarios, scores });
});

after(async () => {
  await Promise.all([good?.close(), deferring?.close(), standins?.close()]);
});

test('at least 15 scenarios ship, each valid, covering what the scorecard promises', () => {
  const scenarios = loadScenarios(SCENARIOS_DIR);
  assert.ok(scenarios.length >= 15, `${scenarios.length} scenarios`);
  const ids = scenarios.map((s) => s.id).join(' ');
  for (const kind of [
    'price',
    'score',
    'playlist',
    'log',
    'arithmetic',
    'search-off',
    'follow-up',
    'preference',
    'no-tools',
    'statement',
    'language',
  ]) {
    assert.match(ids, new RegExp(kind), `a scenario about ${kind}`);
  }
  assert.equal(scenarioSchema.safeParse({ id: 'x', title: 'x', messages: [], expect: {} }).success, false, 'a scenario needs a message');
  assert.equal(
    scenarioSchema.safeParse({ id: 'x', title: 'x', messages: ['hi'], expect: { nonsense: true } }).success,
    false,
    'unknown expectations are refused',
  );
});

test('every scenario completes against the double, for both models', () => {
  assert.equal(report.scores.length, 2 * report.scenarios.length);
  const persona = report.scores.filter((s) => s.model === 'persona');
  assert.deepEqual(
    persona.filter((s) => !s.completed).map((s) => s.scenario),
    [],
    'the persona model answered every turn',
  );
  for (const s of report.scores) {
    assert.ok(s.total > 0 && s.met <= s.total, s.scenario);
    assert.ok(s.modelCalls > 0, `${s.model} ${s.scenario}: the model was called`);
    assert.ok(s.wallMs > 0);
  }
});

test('the model that looks things up scores better than the one that only offers to', () => {
  const [persona, defer] = report.summaries;
  assert.equal(persona.model, 'persona');
  assert.ok(
    persona.met / persona.total > defer.met / defer.total,
    `persona ${persona.met}/${persona.total} against deferring ${defer.met}/${defer.total}`,
  );
  assert.ok(defer.gateNudges > persona.gateNudges, 'the deferring model needed more nudges');
  const price = (model: string) => report.scores.find((s) => s.model === model && s.scenario === '01-price-today')!;
  assert.equal(price('persona').expectations.find((e) => e.what === 'says "61,234"')?.met, true, 'the persona found the price');
  assert.ok(price('deferring').gateNudges >= 1, 'the gate sent the deferring draft back');
  assert.ok(persona.cacheReuse !== null && persona.cacheReuse > 0, 'prompt-cache reuse is read from the server');
  assert.ok(persona.tokensPerSecond !== null && persona.tokensPerSecond > 0, "tokens per second come from llama.cpp's timings");
  assert.ok(persona.ttftMs !== null && persona.ttftMs > 0, 'time to first token is measured');
});

test('the JSON, Markdown and HTML reports have their structure', () => {
  const json = JSON.parse(JSON.stringify(report)) as EvalReport;
  assert.equal(json.tool, 'hearth-eval');
  assert.deepEqual(
    json.models.map((m) => m.name),
    ['persona', 'deferring'],
  );
  for (const key of [...SUMMED, ...AVERAGED, 'met', 'total', 'expectations', 'scenario', 'model', 'completed'] as const) {
    assert.ok(key in json.scores[0], `scores carry ${key}`);
  }
  const md = toMarkdown(report);
  assert.match(md, /^# Hearth model scorecard/);
  assert.match(md, /^## Summary$/m);
  assert.match(md, /^\| persona \| \d+\/\d+ \|/m);
  assert.match(md, /^## persona$/m);
  assert.match(md, /^## deferring$/m);
  assert.equal(md.match(/^\| 01-price-today \|/gm)?.length, 2, 'a row per scenario in each model table');
  const html = toHtml(report);
  assert.match(html, /^<!doctype html>/);
  assert.ok(html.includes('Chart.js v4'), 'Chart.js is inlined, so the file stands alone');
  assert.doesNotMatch(html, /<script[^>]+src=/, 'no script is loaded from elsewhere');
  assert.equal(html.match(/<canvas data-score=/g)?.length, SUMMED.length + AVERAGED.length + 1, 'a chart per score');
  assert.equal(html.match(/<table>/g)?.length, 3, 'the summary and a table per model');
  const data = JSON.parse(
    /<script type="application\/json" id="scorecard-data">([\s\S]*?)<\/script>/.exec(html)![1].replace(/<\\\//g, '</'),
  ) as { scores: unknown[] };
  assert.equal(data.scores.length, report.scores.length);
});

test('--compare puts saved runs side by side, naming repeated models after their run', () => {
  const both = compareReports([
    { label: 'monday', report },
    { label: 'tuesday', report },
  ]);
  assert.deepEqual(
    both.models.map((m) => m.name),
    ['persona (monday)', 'deferring (monday)', 'persona (tuesday)', 'deferring (tuesday)'],
  );
  assert.equal(both.scores.length, 2 * report.scores.length);
  assert.equal(both.summaries[0].met, report.summaries[0].met);
});

test('a playlist is read item by item and checked against the catalogue', () => {
  const answer =
    'Here you go:\n1. **Blue Harbour Night** by The Quiet Quartet\n2. "Velvet Lanterns" - June Okafor\n- Imaginary Song by Nobody\n';
  assert.deepEqual(listedTitles(answer), ['Blue Harbour Night', 'Velvet Lanterns', 'Imaginary Song']);
});

test('a scenario can switch tools off: the model is not offered them', async () => {
  const scenario = scenarioSchema.parse({
    id: 'tools-off',
    title: 'tools off',
    messages: ['What day is it?'],
    tools: { webSearch: false, off: ['now', 'fetch_url'] },
    expect: {},
  });
  good.requests.length = 0;
  await runScenario({ server: { name: 'persona', url: good.url }, scenario, standins, repeat: 1, dataDir: makeTempDir('hearth-eval') });
  const offered = new Set(good.requests.filter((r) => !r.schema).flatMap((r) => r.tools.map((t) => t.function.name)));
  assert.ok(offered.size > 0, 'tools were offered');
  for (const name of ['now', 'fetch_url', 'web_search']) assert.ok(!offered.has(name), `${name} is off`);
  assert.ok(offered.has('calculator'), 'the others stay on');
});
