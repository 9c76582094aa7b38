import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TurnEvent } from '@/lib/contract/events';
import { applyEvent, newTurnState } from '@/lib/contract/turn-state';
import type { ChatOptions, ChatRequest } from '@/lib/models/types';
import { reply, toolCall, type ScriptedModel } from '@/lib/dev/testing/scripted-model';
import { allText, DEFERRAL, runScriptedTurn as run } from '@/lib/dev/testing/turn-harness';

/** The kinds of events in order, runs of the same kind as one. */
const shape = (events: TurnEvent[]) =>
  events.map((e) => e.type).filter((t, i, all) => t !== 'status' && t !== 'decision' && (i === 0 || all[i - 1] !== t));

describe('a thinking model', () => {
  test('thinking streams as its own events before the answer, closed with its figures, and is never the answer', async () => {
    let t = 0;
    const { outcome, events } = await run({
      rounds: [reply('Tides come from the Moon.', { reasoning: 'The user asks about tides. Keep it short.' })],
      question: 'Explain tides.',
      now: () => (t += 10),
    });
    assert.equal(outcome.status, 'done');
    assert.equal(outcome.status === 'done' && outcome.content, 'Tides come from the Moon.');
    assert.deepEqual(shape(events), ['thinking', 'thought', 'delta']);
    assert.equal(
      events
        .filter((e) => e.type === 'thinking')
        .map((e) => (e as { text: string }).text)
        .join(''),
      'The user asks about tides. Keep it short.',
    );
    const thought = events.find((e) => e.type === 'thought') as Extract<TurnEvent, { type: 'thought' }>;
    assert.equal(thought.tokens, 8, 'one token a streamed piece');
    assert.ok(thought.ms > 0);
    assert.equal(outcome.stats.thinkingTokens, 8);
    assert.ok(outcome.stats.firstThinkingMs! < outcome.stats.firstTokenMs!, 'thinking came first');
    // The page's picture: one block, folded once the answer began, with its figures.
    const state = events.reduce((s, e, i) => applyEvent(s, { ...e, seq: i + 1 }), newTurnState('t'));
    assert.deepEqual(
      state.thinking.map(({ text, done, tokens, toolCallsBefore }) => ({ text, done, tokens, toolCallsBefore })),
      [{ text: 'The user asks about tides. Keep it short.', done: true, tokens: 8, toolCallsBefore: 0 }],
    );
    assert.equal(state.final ?? state.draft, 'Tides come from the Moon.');
  });

  test('thinking, a tool call, thinking again, an answer: the second round carries the first round’s reasoning_content', async () => {
    const { outcome, events, model } = await run({
      rounds: [
        { ...toolCall('web_search', { query: 'lyon weather' }), reasoning: 'I need the current weather, so I search.' },
        reply('It is 18 degrees in Lyon, says example.org.', { reasoning: 'The result says 18.' }),
      ],
      question: 'Weather in Lyon?',
    });
    assert.equal(outcome.status, 'done');
    assert.deepEqual(shape(events), ['thinking', 'thought', 'tool_call', 'tool_result', 'thinking', 'thought', 'delta']);
    const second = model.roundRequests[1];
    const call = second.messages.find((m) => m.role === 'assistant' && m.tool_calls);
    assert.ok(call && call.role === 'assistant');
    assert.equal(call.reasoning_content, 'I need the current weather, so I search.');
    const state = events.reduce((s, e, i) => applyEvent(s, { ...e, seq: i + 1 }), newTurnState('t'));
    assert.deepEqual(
      state.thinking.map((b) => b.toolCallsBefore),
      [0, 1],
      'each round’s thinking stands where it came, beside its calls',
    );
  });

  test('the gate judges the answer alone: a deferral in the thinking is no deferral, and the checks never read the thinking', async () => {
    const { outcome, events, model } = await run({
      rounds: [reply('Bitcoin is a cryptocurrency created in 2009.', { reasoning: `Maybe I should say: ${DEFERRAL}` })],
      question: 'What is bitcoin?',
      decide: { needs_fresh: { needs_fresh: false, query: '' } },
    });
    assert.equal(outcome.status, 'done');
    assert.ok(!events.some((e) => e.type === 'draft_rejected'), 'nothing was set aside');
    assert.ok(model.decideRequests.length > 0, 'the checks ran');
    assert.ok(
      model.decideRequests.every((r) => !allText(r).includes('Maybe I should say')),
      'no check was given the thinking as the reply',
    );
  });

  test('a reply that is only thinking is not an answer: it is asked again with thinking off', async () => {
    const { outcome, model } = await run({
      rounds: [reply('', { reasoning: 'Hmm, let me think about this for a long time.' }), reply('Here it is.')],
      question: 'Explain tides.',
    });
    assert.equal(outcome.status === 'done' && outcome.content, 'Here it is.');
    assert.deepEqual(model.roundRequests[1].extra, { chat_template_kwargs: { enable_thinking: false } });
  });

  test('the thread’s thinking mode goes in every round’s request; the model’s default sends nothing', async () => {
    for (const [mode, fields] of [
      ['on', { chat_template_kwargs: { enable_thinking: true } }],
      ['off', { chat_template_kwargs: { enable_thinking: false }, reasoning_effort: 'none' }],
      ['default', undefined],
    ] as const) {
      const { model } = await run({ rounds: [reply('Fine.')], question: 'Explain tides.', thinking: mode });
      assert.deepEqual(model.roundRequests[0].extra, fields, mode);
    }
    // A retry that turns thinking off wins over the thread's "on".
    const { model } = await run({ rounds: [reply('', { reasoning: 'Hmm.' }), reply('Done.')], question: 'Explain tides.', thinking: 'on' });
    assert.deepEqual(model.roundRequests[1].extra, { chat_template_kwargs: { enable_thinking: false } });
  });

  test('text streamed as the answer that turns out to be thinking is taken back: the draft starts again', async () => {
    // A template that opens the thinking in its prompt: the client says so with onRetract.
    const retracting = (model: ScriptedModel) => ({
      health: () => model.health(),
      async chat(request: ChatRequest, options?: ChatOptions) {
        if (request.jsonSchema) return model.chat(request, options);
        const result = await model.chat(request, {});
        options?.onDelta?.('Opened by');
        options?.onDelta?.(' the prompt.');
        options?.onRetract?.('Opened by the prompt.');
        options?.onReasoning?.('Opened by the prompt.');
        options?.onDelta?.('The answer.');
        return result;
      },
    });
    const { outcome, events } = await run({ rounds: [reply('The answer.')], question: 'Explain tides.', wrapModel: retracting });
    assert.equal(outcome.status === 'done' && outcome.content, 'The answer.');
    const state = events.reduce((s, e, i) => applyEvent(s, { ...e, seq: i + 1 }), newTurnState('t'));
    assert.equal(state.draft, 'The answer.', 'the draft the page shows is the answer alone');
    assert.equal(state.thinking[0]?.text, 'Opened by the prompt.');
    assert.equal(state.thinking[0]?.tokens, 2, 'counted as the two pieces it was streamed in');
    assert.ok(
      events.some((e) => e.type === 'draft' && e.text === ''),
      'the draft shown was cleared',
    );
  });
});
