import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ContextRuntime } from '@/lib/turns/context/layers';
import { historyLayer } from '@/lib/turns/context/standard';
import { decideBy, reply, scriptedModel, toolCall } from '@/lib/dev/testing/scripted-model';
import { lookupTool as lookup } from '@/lib/dev/testing/turn-harness';
import { createToolRegistry } from '@/lib/tools/registry';
import type { TurnEvent } from '@/lib/contract/events';
import { StepJournal } from './step-journal';
import { runTurn } from './turn';

/**
 * A turn's statistics and stages with a clock that ticks: every reading of the time is 10 ms
 * later than the one before, so each figure can be worked out by hand from the order of events.
 */

function clock() {
  let t = 1000;
  return () => (t += 10);
}

async function run(rounds: Parameters<typeof scriptedModel>[0]['rounds']) {
  const model = scriptedModel({ rounds, decide: decideBy({ verdict: { verdict: 'answered', query: '' } }) });
  const context = await ContextRuntime.create(
    [historyLayer([{ role: 'user', content: 'Explain closures.' }], { maxMessages: 10, maxChars: 10_000 })] as const,
    {
      executionId: 't',
      threadId: 'th',
      resourceId: 'r',
    },
  );
  const events: TurnEvent[] = [];
  const outcome = await runTurn(
    { question: 'Explain closures.', earlierAnswers: [] },
    {
      model,
      tools: createToolRegistry([lookup]),
      toolDeps: { now: () => 0, timezone: 'UTC', threadId: 'th' },
      context,
      steps: new StepJournal([], () => {}),
      emit: (e) => events.push(e),
      now: clock(),
      signal: new AbortController().signal,
      researchAvailable: () => false,
      parallelSideCalls: false,
    },
  );
  return { outcome, events, model };
}

test('turn stats: rounds, calls, tokens summed, tool calls counted, generation speed from the server’s timings', async () => {
  const { outcome } = await run([
    {
      ...toolCall('lookup', { q: 'a' }),
      usage: { promptTokens: 100, completionTokens: 7 },
      timings: { predictedTokens: 7, predictedMs: 20 },
    },
    reply('A closure keeps its scope.', {
      usage: { promptTokens: 150, completionTokens: 13 },
      timings: { predictedTokens: 13, predictedMs: 30 },
    }),
  ]);
  assert.equal(outcome.status, 'done');
  const s = outcome.stats;
  assert.equal(s.rounds, 2);
  assert.equal(s.modelCalls, 3, 'no research tool: the verdict still judges the draft');
  assert.equal(s.toolCalls, 1);
  assert.equal(s.promptTokens, 260, 'the rounds’ 250 and the verdict’s 10');
  assert.equal(s.completionTokens, 25, 'the rounds’ 20 and the verdict’s 5');
  assert.equal(s.tokensPerSecond, 400, '20 tokens in 50 ms');
  assert.ok(s.ms > 0 && s.modelMs > 0 && s.modelMs < s.ms, `model time is part of the turn's time (${s.modelMs} of ${s.ms})`);
  assert.equal(s.modelMs % 10, 0, 'whole ticks');
  assert.ok(
    s.firstTokenMs !== undefined && s.firstTokenMs > 0 && s.firstTokenMs < s.ms,
    'the first word came after the start and before the end',
  );
});

test('turn stages: thinking, searching, writing, then checking the draft, in that order; a call without an id is named by its round and place', async () => {
  const { events, model } = await run([
    {
      content: '',
      finishReason: 'tool_calls',
      toolCalls: [
        { id: '', name: 'lookup', arguments: '{"q":"x"}' },
        { id: '', name: 'lookup', arguments: '{"q":"y"}' },
      ],
    },
    reply('Done.'),
  ]);
  assert.deepEqual(
    events.filter((e) => e.type === 'status').map((e) => (e.type === 'status' ? e.stage : '')),
    ['thinking', 'searching', 'writing', 'checking'],
  );
  assert.deepEqual(
    events.filter((e) => e.type === 'tool_call').map((e) => (e.type === 'tool_call' ? e.id : '')),
    ['call_0_0', 'call_0_1'],
  );
  const toolMessages = model.roundRequests[1].messages.filter((m) => m.role === 'tool');
  assert.deepEqual(
    toolMessages.map((m) => (m.role === 'tool' ? [m.tool_call_id, m.content] : [])),
    [
      ['call_0_0', '{"found":"x"}'],
      ['call_0_1', '{"found":"y"}'],
    ],
  );
});

test('turn: a failing call that is no HearthError ends the turn as an internal error naming it', async () => {
  const { outcome } = await run([new Error('socket hang up')]);
  assert.equal(outcome.status, 'error');
  assert.equal(outcome.status === 'error' && outcome.code, 'internal');
  assert.equal(outcome.status === 'error' && outcome.message, 'The turn failed: socket hang up');
});
