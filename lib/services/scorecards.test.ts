import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { readScorecards } from './scorecards';

const summary = (model: string, completed: number, tokensPerSecond: number | null) => ({
  model,
  runs: 16,
  met: 40,
  total: 48,
  completed,
  deferralsLeft: 16 - completed,
  tokensPerSecond,
});
function report(dir: string, run: string, finishedAt: string, models: { name: string; modelId?: string }[], summaries: unknown[]) {
  fs.mkdirSync(path.join(dir, run), { recursive: true });
  fs.writeFileSync(
    path.join(dir, run, 'scorecard.json'),
    JSON.stringify({ tool: 'hearth-eval', version: 1, finishedAt, models, summaries }),
  );
}

test("each model's newest scorecard, by its run name or its server's id; files that are not reports are passed over", () => {
  const dir = makeTempDir('hearth-scorecards');
  report(dir, 'old', '2026-11-01T10:00:00.000Z', [{ name: 'qwen3-8b', modelId: 'Qwen3-8B-Q4_K_M' }], [summary('qwen3-8b', 10, 40)]);
  report(
    dir,
    'new',
    '2026-12-01T10:00:00.000Z',
    [{ name: 'qwen3-8b', modelId: 'Qwen3-8B-Q4_K_M' }, { name: 'gemma-3-4b' }],
    [summary('qwen3-8b', 15, 42.5), summary('gemma-3-4b', 12, null)],
  );
  fs.mkdirSync(path.join(dir, 'broken'));
  fs.writeFileSync(path.join(dir, 'broken', 'scorecard.json'), '{"tool": "hearth-eval", "summaries": "no"');
  fs.mkdirSync(path.join(dir, 'other'));
  fs.writeFileSync(path.join(dir, 'other', 'scorecard.json'), JSON.stringify({ tool: 'something-else', summaries: [] }));

  const cards = readScorecards(dir);
  assert.deepEqual(cards.get('qwen3-8b'), {
    completed: 15,
    runs: 16,
    met: 40,
    total: 48,
    deferralsLeft: 1,
    tokensPerSecond: 42.5,
    at: '2026-12-01T10:00:00.000Z',
  });
  assert.equal(cards.get('Qwen3-8B-Q4_K_M')?.completed, 15, 'found by the id its server gave as well');
  assert.equal(cards.get('gemma-3-4b')?.tokensPerSecond, null);
  assert.deepEqual([...cards.keys()].sort(), ['Qwen3-8B-Q4_K_M', 'gemma-3-4b', 'qwen3-8b']);

  // A report rewritten in place is read again.
  report(dir, 'new', '2026-12-02T10:00:00.000Z', [{ name: 'gemma-3-4b' }], [summary('gemma-3-4b', 14, 55)]);
  assert.equal(readScorecards(dir).get('gemma-3-4b')?.completed, 14);
  assert.equal(readScorecards(path.join(dir, 'nowhere')).size, 0, 'no folder: no scorecards');
});
