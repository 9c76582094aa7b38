import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startLlamaDouble } from '@/e2e/double/llama-double';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { corpusItems, parseGateItems, scriptOf, type GateReport } from './gate-eval';
import { readGateScorecards } from '@/lib/services/scorecards';

const root = path.resolve(import.meta.dirname, '../../..');

test('gate eval: a person’s JSON Lines drafts are read, each language named or told by its script; a bad line is refused by its number', () => {
  const items = parseGateItems(
    [
      '{"d": 1, "text": "Honestly? I’d be guessing.", "question": "Franc to euro?", "lang": "en"}',
      '',
      '{"d": 0, "text": "東京の人口は約1400万人です。"}',
      '{"d": 1, "text": "У меня нет доступа к интернету."}',
    ].join('\n'),
  );
  assert.deepEqual(
    items.map((i) => [i.d, i.lang, i.question ?? null]),
    [
      [1, 'en', 'Franc to euro?'],
      [0, 'ja', null],
      [1, 'cyrillic', null],
    ],
  );
  assert.equal(scriptOf('नमस्ते'), 'hi');
  assert.equal(scriptOf('Xin chào'), 'latin');
  assert.throws(() => parseGateItems('{"d": 1, "text": "ok"}\n{"d": 2, "text": "x"}'), /^Error: line 2: d: /);
  assert.throws(() => parseGateItems('{"d": 1, "text": "ok"}\nnot json'), /^Error: line 2: not JSON$/);
  assert.throws(() => parseGateItems('{"d": 1, "text": "ok", "extra": true}'), /^Error: line 1: /);
  assert.throws(() => parseGateItems('\n\n'), /no drafts/);
});

test('gate eval: the project’s own set is the frozen slices, every language, deferrals and answers', () => {
  const items = corpusItems();
  const langs = [...new Set(items.map((i) => i.lang))].sort();
  assert.deepEqual(langs, ['de', 'en-fresh', 'es', 'fr', 'it', 'pt', 'zh']);
  assert.ok(items.some((i) => i.d === 1) && items.some((i) => i.d === 0));
});

test('npm run eval -- --gate runs against the double: recall and precision per language, time per judgement, gate.json the picker reads', async () => {
  const double = await startLlamaDouble();
  const out = makeTempDir('hearth-gate-eval');
  const file = path.join(out, 'drafts.jsonl');
  fs.writeFileSync(
    file,
    [
      { d: 1, text: 'К сожалению, у меня нет доступа к актуальным курсам валют.', question: 'Какой курс евро сегодня?', lang: 'ru' },
      { d: 0, text: 'Курс евро сегодня 98,4 рубля по данным ЦБ.', question: 'Какой курс евро сегодня?', lang: 'ru' },
      { d: 1, text: 'Honestly? I’d be guessing. Nothing I hold is fresh enough to quote.', question: 'Franc to euro today?', lang: 'en' },
      {
        d: 0,
        text: 'A knowledge cutoff is the date after which a model saw no training data.',
        question: 'What is a knowledge cutoff?',
        lang: 'en',
      },
    ]
      .map((x) => JSON.stringify(x))
      .join('\n'),
  );
  try {
    const child = spawn(
      process.execPath,
      ['--conditions=react-server', '--import', 'tsx', 'scripts/eval.ts', '--gate', file, '--url', double.url, '--out', out],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, stderr);
    const model = double.requests.find((r) => !r.schema)?.body.model ?? 'llama-double';
    assert.match(stdout, /verdict \d+ ms per judgement, freshness \d+ ms \(\d\/3 questions need current information\)/);
    assert.match(stdout, /\n {4}en +2 drafts, +1 deferrals · recall 100% · precision 100%/);
    assert.match(stdout, /\n {4}ru +2 drafts, +1 deferrals · recall 100% · precision 100%/);
    assert.match(stdout, /\n {4}all +4 drafts, +2 deferrals/);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'gate.json'), 'utf8')) as GateReport;
    assert.equal(report.tool, 'hearth-gate-eval');
    assert.equal(report.models.length, 1);
    const verdicts = double.requests.filter((r) => r.schema && 'verdict' in ((r.schema as { properties?: object }).properties ?? {}));
    assert.equal(verdicts.length, 4, 'one verdict per draft');
    const cards = readGateScorecards(out);
    const card = cards.get(report.models[0].name);
    assert.ok(card, `the picker reads it (${model})`);
    assert.deepEqual([card.recall, card.precision, card.drafts, card.languages], [1, 1, 4, 2]);
  } finally {
    await double.close();
  }
});
