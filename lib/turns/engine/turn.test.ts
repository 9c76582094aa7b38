import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { ContextRuntime } from '@/lib/turns/context/layers';
import { historyLayer } from '@/lib/turns/context/standard';
import { HearthError } from '@/lib/shared/errors';
import type { ChatOptions, ChatRequest } from '@/lib/models/types';
import { decideBy, reply, scriptedModel, toolCall, type ScriptedModel } from '@/lib/dev/testing/scripted-model';
import { allText, DEFERRAL, DEFERRING_CLASSIFIER, runScriptedTurn, schemaKeys, UNSURE_CLASSIFIER } from '@/lib/dev/testing/turn-harness';
import { createToolRegistry } from '@/lib/tools/registry';
import { defineTool, type Tool } from '@/lib/tools/types';
import { LAST_ROUND_NOTE, TOOLS_OFF_NOTE } from './prompts';
import { StepJournal } from './step-journal';
import { runTurn } from './turn';

const run = runScriptedTurn;

describe('turn engine', () => {
  test('a plain answer passes the gate in one round, with tools offered on "auto"', async () => {
    const { outcome, model, events } = await run({ rounds: [reply('Paris is the capital of France.')], question: 'Capital of France?' });
    assert.equal(outcome.status, 'done');
    assert.equal(outcome.status === 'done' && outcome.content, 'Paris is the capital of France.');
    assert.equal(model.roundRequests[0].toolChoice, 'auto');
    assert.ok(model.roundRequests[0].tools?.length);
    assert.ok(events.some((e) => e.type === 'delta'));
    // The classifier reads it as no deferral: recorded, and the verdict judges it (a confident classifier never skips it).
    const judged = events.find((e) => e.type === 'decision' && e.record.stepId === 'deferral_classifier');
    assert.ok(judged && judged.type === 'decision' && judged.record.source === 'classifier');
    assert.deepEqual(judged.record.answers.outcome, { kind: 'text', value: 'not a deferral' });
    assert.ok(events.some((e) => e.type === 'decision' && e.record.stepId === 'verdict'));
    assert.equal(model.decideRequests.filter((r) => schemaKeys(r).includes('verdict')).length, 1);
    // And the Checks say who accepted it.
    const accepted = events.find((e) => e.type === 'decision' && e.record.stepId === 'acceptance');
    assert.ok(accepted && accepted.type === 'decision' && accepted.record.source === 'program');
    assert.match(String((accepted.record.answers.accepted_by as { value: string }).value), /^the verdict/);
  });

  test('a deferral is set aside, never re-sent, and the next round is forced to use a tool', async () => {
    const { outcome, model, events, runs } = await run({
      rounds: [
        reply(DEFERRAL),
        toolCall('web_search', { query: 'bitcoin price' }),
        reply('Bitcoin costs 42 euros, according to example.org.'),
      ],
    });
    assert.equal(outcome.status, 'done');
    const rejected = events.find((e) => e.type === 'draft_rejected');
    assert.equal(rejected?.type === 'draft_rejected' && rejected.reason, 'deferral');
    assert.equal(model.roundRequests[1].toolChoice, 'required');
    for (const req of model.roundRequests.slice(1)) assert.ok(!allText(req).includes(DEFERRAL), 'the draft never goes back to the model');
    const nudge = model.roundRequests[1].messages.at(-1);
    assert.equal(nudge?.role, 'user');
    assert.match(String(nudge && 'content' in nudge ? nudge.content : ''), /Call a tool now/);
    assert.deepEqual(runs, ['bitcoin price']);
    assert.equal(model.roundRequests[2].toolChoice, 'auto', 'forcing lasts one round');
    assert.equal(outcome.stats.gateNudges, 1);
  });

  test('freshness (asked of the question) sends back a confident invented answer with its query', async () => {
    const { model, events } = await run({
      rounds: [reply('Bitcoin costs 12 dollars.'), toolCall('web_search', { query: 'bitcoin price today' }), reply('It costs 42 euros.')],
      decide: { needs_fresh: { needs_fresh: true, query: 'bitcoin price today' } },
    });
    const rejected = events.find((e) => e.type === 'draft_rejected');
    assert.ok(rejected?.type === 'draft_rejected' && rejected.reason === 'freshness' && rejected.query === 'bitcoin price today');
    const freshnessReq = model.decideRequests.find((r) => 'needs_fresh' in ((r.jsonSchema as { properties: object }).properties ?? {}));
    assert.ok(freshnessReq);
    assert.ok(!allText(freshnessReq!).includes('12 dollars'), 'freshness never sees the draft');
    assert.match(allText(model.roundRequests[1]), /Search for "bitcoin price today" now/);
  });

  test('freshness is not asked once a tool ran, and the verdict can still send a draft back', async () => {
    const { events } = await run({
      rounds: [
        toolCall('web_search', { query: 'btc' }),
        reply('Not sure.'),
        toolCall('web_search', { query: 'btc eur' }),
        reply('42 euros.'),
      ],
      decide: { verdict: { verdict: 'research', query: 'btc eur' }, needs_fresh: { needs_fresh: true, query: 'x' } },
      config: { maxGates: 1 },
    });
    const rejected = events.filter((e) => e.type === 'draft_rejected');
    assert.equal(rejected.length, 1);
    assert.ok(rejected[0].type === 'draft_rejected' && rejected[0].reason === 'verdict' && rejected[0].query === 'btc eur');
  });

  test('the gate fires at most maxGates times, then the draft is accepted', async () => {
    const { outcome, events } = await run({
      rounds: [
        reply(DEFERRAL),
        toolCall('web_search', { query: 'a' }),
        reply(DEFERRAL),
        toolCall('web_search', { query: 'b' }),
        reply(DEFERRAL),
      ],
    });
    assert.equal(events.filter((e) => e.type === 'draft_rejected').length, 2);
    assert.equal(outcome.status, 'done');
  });

  test('every model-based check fails open: errors and junk let the draft through', async () => {
    const { model, outcome, events } = await run({
      rounds: [reply('Bitcoin costs 12 dollars.')],
      decide: { needs_fresh: new Error('server down'), verdict: { verdict: 'maybe', query: 1 } },
      classifier: UNSURE_CLASSIFIER,
    });
    // Both checks were really asked, both failed, and the draft stands as written.
    const asked = model.decideRequests.map((r) =>
      Object.keys((r.jsonSchema as { properties?: object }).properties ?? {})
        .sort()
        .join(','),
    );
    assert.ok(
      asked.some((k) => k.includes('needs_fresh')),
      `the freshness check was asked (${asked.join(' | ')})`,
    );
    assert.ok(
      asked.some((k) => k.includes('verdict')),
      `the verdict was asked (${asked.join(' | ')})`,
    );
    assert.equal(outcome.status, 'done');
    assert.equal(outcome.status === 'done' && outcome.content, 'Bitcoin costs 12 dollars.');
    assert.equal(events.filter((e) => e.type === 'draft_rejected').length, 0, 'nothing was set aside');
    assert.equal(model.roundRequests.length, 1, 'no second round');
  });

  test('the repeat ledger answers identical calls and takes tools away after two repeats', async () => {
    const { model, runs, events, outcome } = await run({
      rounds: [
        toolCall('web_search', { query: 'Bitcoin', limit: 3 }),
        toolCall('web_search', { query: 'bitcoin ', limit: 10 }),
        toolCall('web_search', { query: 'BITCOIN' }),
        reply('Bitcoin costs 42 euros.'),
      ],
    });
    assert.deepEqual(runs, ['Bitcoin'], 'size-only and case differences are the same call');
    const repeats = events.filter((e) => e.type === 'tool_result' && e.repeat);
    assert.equal(repeats.length, 2);
    const repeatMsg = model.roundRequests[2].messages.at(-1);
    assert.ok(repeatMsg && repeatMsg.role === 'tool');
    const body = JSON.parse((repeatMsg as { content: string }).content);
    assert.equal(body.repeat, true);
    assert.match(body.note, /will not change/);
    assert.ok(body.result.results);
    // Tools stay in the prompt (its prefix does not change) but none can be called.
    assert.deepEqual(model.roundRequests[3].tools, model.roundRequests[0].tools);
    assert.equal(model.roundRequests[3].toolChoice, 'none', 'no tool calls after two repeats');
    assert.ok(allText(model.roundRequests[3]).includes(TOOLS_OFF_NOTE));
    assert.equal(outcome.status, 'done');
  });

  test('the last round allows no tool calls (tool_choice "none", tools kept for the prefix) and says to answer with what there is', async () => {
    const { model, outcome } = await run({
      rounds: [toolCall('web_search', { query: 'a' }), toolCall('web_search', { query: 'b' }), reply('Here is what I have.')],
      config: { maxRounds: 3 },
    });
    assert.equal(outcome.status, 'done');
    const last = model.roundRequests[2];
    assert.deepEqual(last.tools, model.roundRequests[0].tools);
    assert.equal(last.toolChoice, 'none');
    assert.ok(allText(last).includes(LAST_ROUND_NOTE));
  });

  test('tool_choice is never sent without tools', async () => {
    const { model, outcome } = await run({
      rounds: [reply('Closures capture variables.')],
      research: false,
      question: 'Explain closures.',
    });
    assert.equal(outcome.status, 'done');
    assert.equal(model.roundRequests[0].tools?.length ?? 0, 0);
    assert.equal(model.roundRequests[0].toolChoice, undefined);
  });

  test('every round of a turn starts with the same prompt and only adds to it (the cache survives the rounds)', async () => {
    const { model, outcome } = await run({
      rounds: [reply(DEFERRAL), toolCall('web_search', { query: 'btc' }), reply('42 euros.')],
      decide: { needs_fresh: { needs_fresh: true, query: 'btc' } },
    });
    assert.equal(outcome.status, 'done');
    const [r0, r1, r2] = model.roundRequests;
    assert.deepEqual(r1.messages.slice(0, r0.messages.length), r0.messages);
    assert.deepEqual(r2.messages.slice(0, r1.messages.length), r1.messages);
    assert.deepEqual(r2.tools, r0.tools);
  });

  test('a tool call cut off by max_tokens is retried without tools', async () => {
    const { model, outcome } = await run({
      rounds: [
        { content: '', finishReason: 'length', toolCalls: [{ id: 'x', name: 'web_search', arguments: '{"que' }] },
        reply('Answer without the tool.'),
      ],
      question: 'Explain closures.',
    });
    assert.equal(outcome.status, 'done');
    assert.equal(model.roundRequests[1].toolChoice, 'none');
  });

  test("an older server's 500 about a tool-call parse failure is retried without tools", async () => {
    const { model, outcome } = await run({
      rounds: [
        new HearthError('model_error', 'The model server answered with an error: Failed to parse tool call arguments'),
        reply('Fine.'),
      ],
      question: 'Explain closures.',
    });
    assert.equal(outcome.status, 'done');
    assert.equal(model.roundRequests[1].toolChoice, 'none');
  });

  test('a server without --jinja: tools are dropped for the rest of the turn and the turn still answers', async () => {
    const { model, outcome } = await run({
      rounds: [
        new HearthError('model_error', 'The model server answered with an error: tools param requires --jinja flag'),
        reply(DEFERRAL),
        reply('From what I know, about 40k.'),
      ],
    });
    assert.equal(outcome.status, 'done');
    assert.equal(model.roundRequests[1].tools?.length ?? 0, 0);
    assert.equal(model.roundRequests[2].tools?.length ?? 0, 0, 'no tools after the refusal');
    assert.notEqual(model.roundRequests[2].toolChoice, 'required');
    assert.ok(outcome.diagnostics.some((d) => /--jinja/.test(d)));
  });

  test('with "required" a model that writes text and never calls is retried without tools', async () => {
    const { model, outcome } = await run({
      rounds: [
        reply(DEFERRAL),
        reply('Let me think about which tool', { finishReason: 'length' }),
        reply('Bitcoin was about 40k last I knew.'),
      ],
    });
    assert.equal(model.roundRequests[1].toolChoice, 'required');
    assert.equal(model.roundRequests[2].toolChoice, 'none');
    assert.equal(outcome.status, 'done');
  });

  test('a reply with only reasoning is retried with thinking off; a turn that found nothing and got nothing ends in an error', async () => {
    const ok = await run({ rounds: [reply('', { reasoning: 'hmm' }), reply('Done.')], question: 'Hi' });
    assert.equal(ok.outcome.status, 'done');
    assert.deepEqual(ok.model.roundRequests[1].extra, { chat_template_kwargs: { enable_thinking: false } });
    const bad = await run({ rounds: [reply('', { reasoning: 'hmm' }), reply('', { reasoning: 'still' }), reply('')], question: 'Hi' });
    assert.equal(bad.model.roundRequests.length, 3, 'one last plain attempt to answer');
    assert.equal(bad.model.roundRequests[2].tools, undefined);
    assert.equal(bad.outcome.status, 'error');
    assert.equal(bad.outcome.status === 'error' && bad.outcome.code, 'model_error');
  });

  test('tool-call markup written as text becomes a real call and never reaches the user', async () => {
    const { events, runs, outcome } = await run({
      rounds: [reply('Checking. <tool_call>{"name": "web_search", "arguments": {"query": "btc"}}</tool_call>'), reply('42 euros.')],
    });
    assert.deepEqual(runs, ['btc']);
    const streamed = events
      .filter((e) => e.type === 'delta')
      .map((e) => (e.type === 'delta' ? e.text : ''))
      .join('');
    assert.ok(!streamed.includes('<tool_call'), streamed);
    assert.equal(outcome.status, 'done');
  });

  test('with no research tool the gate never sends the turn to research: one nudge to answer from knowledge', async () => {
    const { model, events, outcome } = await run({
      research: false,
      rounds: [reply(DEFERRAL), reply(DEFERRAL)],
      decide: { needs_fresh: { needs_fresh: true, query: 'x' }, verdict: { verdict: 'research', query: 'x' } },
    });
    assert.equal(outcome.status, 'done');
    const rejected = events.filter((e) => e.type === 'draft_rejected');
    assert.equal(rejected.length, 1);
    assert.ok(rejected[0].type === 'draft_rejected' && rejected[0].reason === 'no_research');
    assert.notEqual(model.roundRequests[1].toolChoice, 'required');
    assert.ok(
      !model.decideRequests.some((r) => 'needs_fresh' in ((r.jsonSchema as { properties: object }).properties ?? {})),
      'freshness is not asked',
    );
  });

  test('budget: the model-call quota is checked before fuel and ends the turn with budget_exhausted', async () => {
    const { outcome } = await run({
      rounds: [toolCall('web_search', { query: 'a' }), toolCall('web_search', { query: 'b' }), reply('x')],
      question: 'Explain closures.',
      config: { budget: { fuel: 10_000, modelCalls: 2, modelCallCost: 100 } },
    });
    assert.equal(outcome.status, 'error');
    assert.equal(outcome.status === 'error' && outcome.code, 'budget_exhausted');
    assert.equal(outcome.stats.modelCalls, 2);
    assert.equal(outcome.stats.fuelUsed, 205, 'the blocked call cost nothing');
  });

  test('budget: fuel runs out before a model call', async () => {
    const { outcome } = await run({
      rounds: [toolCall('web_search', { query: 'a' }), reply('x')],
      question: 'Explain closures.',
      config: { budget: { fuel: 150, modelCalls: 16, modelCallCost: 100 } },
    });
    assert.equal(outcome.status === 'error' && outcome.code, 'budget_exhausted');
  });

  test('cancel returns the partial answer', async () => {
    const abort = new AbortController();
    const { outcome } = await run({
      rounds: [
        () => {
          abort.abort();
          return new HearthError('cancelled', 'stopped');
        },
      ],
      signal: abort.signal,
      question: 'Explain closures.',
    });
    assert.equal(outcome.status, 'cancelled');
  });

  test('tool failures reach the model as {error} advice, never crash the turn', async () => {
    const { model, outcome } = await run({
      rounds: [toolCall('web_search', { query: 'fail' }), toolCall('nope', {}), reply('I could not check.')],
      // "I could not check" reads as a deferral to the classifier; this test is about the tools.
      classifier: UNSURE_CLASSIFIER,
    });
    assert.equal(outcome.status, 'done');
    const toolMsg = model.roundRequests[1].messages.at(-1) as { content: string };
    assert.match(JSON.parse(toolMsg.content).error, /did not answer/);
    const unknown = model.roundRequests[2].messages.at(-1) as { content: string };
    assert.match(JSON.parse(unknown.content).error, /no tool called "nope"/);
  });

  test('program-decided arithmetic: the plan is computed exactly and reaches the answering round', async () => {
    const { model, events, outcome } = await run({
      question: 'What is 23 * 47 + 156?',
      rounds: [reply('The answer is 1237.')],
      decide: { is_arithmetic: { is_arithmetic: true }, expression: { expression: '23 * 47 + 156' } },
    });
    const calc = events.find((e) => e.type === 'calculation');
    assert.ok(calc?.type === 'calculation' && calc.result === '1237' && calc.exact);
    assert.match(allText(model.roundRequests[0]), /The exact result is 1237 \(plan: 23 \* 47 \+ 156\)/);
    assert.ok(
      !model.decideRequests.some((r) => 'needs_fresh' in ((r.jsonSchema as { properties: object }).properties ?? {})),
      'no freshness after a calculation',
    );
    assert.equal(outcome.status, 'done');
  });

  test('program-decided arithmetic: a plan in the wrong shape ends that path and the turn goes on', async () => {
    const { events, outcome } = await run({
      question: 'What is 23 * 47 + 156?',
      rounds: [reply('About 1200.')],
      decide: { is_arithmetic: { is_arithmetic: true }, expression: { expression: 'rm -rf /' } },
    });
    assert.ok(!events.some((e) => e.type === 'calculation'));
    assert.equal(outcome.status, 'done');
    assert.ok(outcome.diagnostics.some((d) => /not in the expected shape/.test(d)));
  });

  test('a resumed turn replays completed steps without repeating model calls or tool runs', async () => {
    const first = await run({ rounds: [toolCall('web_search', { query: 'btc' }), reply('42 euros.')], question: 'Explain bitcoin.' });
    assert.equal(first.outcome.status, 'done');
    // The crash came after the tool ran: keep the steps up to and including the tool result.
    const toolIdx = first.appended.findIndex((s) => s.kind === 'tool');
    const stored = first.appended.slice(0, toolIdx + 1);
    const again = await run({ rounds: [reply('42 euros, resumed.')], stored, question: 'Explain bitcoin.' });
    assert.equal(again.outcome.status, 'done');
    assert.deepEqual(again.runs, [], 'the tool did not run again');
    assert.equal(again.model.roundRequests.length, 1, 'only the unfinished round called the model');
    assert.ok(!again.events.some((e) => e.type === 'tool_call'), 'replayed steps do not emit again');
  });

  test('a decision replayed from the step journal does not fire onDecision again', async () => {
    const first = await run({
      rounds: [reply(DEFERRAL), toolCall('web_search', { query: 'btc' }), reply('42 euros.')],
      decide: { needs_fresh: { needs_fresh: false, query: '' } },
    });
    const verdictAt = first.appended.findIndex((s) => s.kind === 'decision:acceptance');
    assert.ok(verdictAt >= 0);
    // Crash right after the verdict and its acceptance were recorded (the last round had not been stored).
    const stored = first.appended.slice(0, verdictAt + 1);
    const recorded = stored.filter((s) => s.kind.startsWith('decision:')).length;
    assert.ok(recorded >= 2);
    const again = await run({ rounds: [], stored, decide: { needs_fresh: { needs_fresh: false, query: '' } } });
    assert.equal(again.outcome.status, 'done');
    assert.equal(again.model.requests.length, 0, 'nothing was asked of the model again');
    assert.equal(again.context.context.decisionsHistory.all.length, 0, 'onDecision did not fire for replayed decisions');
    assert.ok(!again.events.some((e) => e.type === 'decision'));
  });
});

describe('every turn that gathered something ends with an answer', () => {
  const MARKUP = '<tool_call>{"name": "web_search", "arguments": {"query": "bitcoin price"}}</tool_call>';
  const searched = [toolCall('web_search', { query: 'bitcoin price' })];

  test('a last round that is only tool markup is asked once more, with the results as plain text and no tools', async () => {
    const { model, outcome, events } = await run({
      rounds: [...searched, reply(MARKUP), reply('Bitcoin costs 42 euros, says example.org.')],
      config: { maxRounds: 2 },
    });
    assert.equal(outcome.status, 'done');
    assert.equal(outcome.status === 'done' && outcome.content, 'Bitcoin costs 42 euros, says example.org.');
    const retry = model.roundRequests[2];
    assert.equal(retry.tools, undefined, 'no tools at all in the last attempt');
    assert.ok(
      !retry.messages.some((m) => m.role === 'tool' || (m.role === 'assistant' && m.tool_calls)),
      'no tool-call messages for the template to continue',
    );
    const last = retry.messages.at(-1) as { role: string; content: string };
    assert.equal(last.role, 'user');
    assert.match(
      last.content,
      /What is the price of bitcoin\?[\s\S]*What the tools found in this turn:[\s\S]*It costs 42 euros[\s\S]*Answer the question above now/,
    );
    assert.deepEqual(retry.extra, { chat_template_kwargs: { enable_thinking: false } });
    assert.ok(!events.some((e) => e.type === 'delta' && e.text.includes('<tool_call')), 'markup never shown');
    assert.equal(outcome.stats.compiled, undefined);
  });

  for (const [what, last] of [
    ['only tool markup', reply(MARKUP)],
    ['empty', reply('')],
    ['only reasoning', reply('', { reasoning: 'I should search again.' })],
  ] as const) {
    test(`a last round that is ${what}, twice over, gets an answer compiled from what was found`, async () => {
      const { outcome, events } = await run({ rounds: [...searched, last, last, reply('')], config: { maxRounds: 2 } });
      assert.equal(outcome.status, 'done', JSON.stringify(outcome));
      const content = outcome.status === 'done' ? outcome.content : '';
      assert.match(content, /Hearth compiled this from what its tools found/);
      assert.match(content, /web search for “bitcoin price”/);
      assert.match(content, /\[About bitcoin price\]\(https:\/\/example\.org\/\): It costs 42 euros\./);
      assert.equal(outcome.stats.compiled, true);
      assert.ok(
        events.some((e) => e.type === 'delta' && e.text === content),
        'the compiled answer is streamed like any other',
      );
    });
  }

  test('when the last attempt itself fails, the answer is compiled rather than lost', async () => {
    const { outcome } = await run({
      rounds: [...searched, reply(''), new HearthError('model_stream_broken', 'cut')],
      config: { maxRounds: 2 },
    });
    assert.equal(outcome.status, 'done');
    assert.equal(outcome.stats.compiled, true);
  });

  test('a turn that found nothing and whose model wrote nothing ends in an error', async () => {
    const { outcome } = await run({ rounds: [reply(''), reply('')], question: 'Explain closures.' });
    assert.equal(outcome.status, 'error');
    assert.equal(outcome.status === 'error' && outcome.code, 'model_error');
  });

  test('a compiled answer escapes what pages and snippets say: no links, images or HTML of their own', async () => {
    const hostile = defineTool({
      name: 'web_search',
      description: 'search',
      params: z.object({ query: z.string() }),
      cost: 1,
      timeoutMs: 1000,
      research: true,
      async run() {
        return {
          results: [
            { title: '![x](https://evil.example/leak) <img src=x>', url: 'javascript:alert(1)', snippet: '[click](https://evil.example)' },
          ],
        };
      },
    }) as Tool;
    const model = scriptedModel({ rounds: [toolCall('web_search', { query: 'q' }), reply(''), reply('')], decide: decideBy({}) });
    const context = await ContextRuntime.create(
      [historyLayer([{ role: 'user', content: 'q?' }], { maxMessages: 4, maxChars: 1000 })] as const,
      { executionId: 'e', threadId: 't', resourceId: 'r' },
    );
    const outcome = await runTurn(
      { question: 'q?', earlierAnswers: [] },
      {
        model,
        tools: createToolRegistry([hostile]),
        toolDeps: { now: () => 0, timezone: 'UTC', threadId: 't' },
        context,
        steps: new StepJournal([], () => undefined),
        emit: () => undefined,
        now: () => 0,
        signal: new AbortController().signal,
        researchAvailable: () => true,
        config: { maxRounds: 2 },
      },
    );
    const content = outcome.status === 'done' ? outcome.content : '';
    const found = content.slice(content.indexOf('**What was found**'));
    assert.doesNotMatch(found, /(?<!\\)[[\]()<>!]/, 'every bracket, paren, angle and bang from the tool is escaped');
    assert.doesNotMatch(content, /javascript:/i, 'a javascript: URL is dropped, not linked');
    assert.match(found, /\\!\\\[x\\\]\\\(https:\/\/evil\.example\/leak\\\) \\<img src=x\\>/);
  });
});

describe('invented tools', () => {
  test('a real tool call to a tool that does not exist gets an {error} naming the real ones, and the turn goes on', async () => {
    const { model, outcome, events } = await run({
      rounds: [toolCall('get_weather', { city: 'Lyon' }), reply('I could not check the weather.')],
      question: 'Weather in Lyon?',
      // The classifier would send "I could not check" back to web_search; this test is about the invented tool.
      classifier: UNSURE_CLASSIFIER,
    });
    assert.equal(outcome.status, 'done');
    const result = events.find((e) => e.type === 'tool_result');
    assert.ok(
      result &&
        result.type === 'tool_result' &&
        !result.ok &&
        /no tool called "get_weather"; the tools are: web_search/.test(result.error ?? ''),
    );
    const toolMsg = model.roundRequests[1].messages.at(-1) as { role: string; content: string };
    assert.equal(toolMsg.role, 'tool');
    assert.match(JSON.parse(toolMsg.content).error, /no tool called "get_weather"/);
  });

  test('markup for a tool that does not exist is answered the same way and never shown', async () => {
    const { outcome, events } = await run({
      rounds: [
        reply('<tool_call>{"name": "get_weather", "arguments": {"city": "Lyon"}}</tool_call>'),
        reply('It may rain; I could not check.'),
      ],
      question: 'Weather in Lyon?',
      classifier: UNSURE_CLASSIFIER,
    });
    assert.equal(outcome.status, 'done');
    assert.ok(events.some((e) => e.type === 'tool_result' && !e.ok && e.name === 'get_weather'));
    assert.ok(!events.some((e) => e.type === 'delta' && e.text.includes('tool_call')));
  });
});

describe('side calls with one model slot', () => {
  test('freshness is not sent before the round the user waits for; the gate asks it after the draft', async () => {
    const { model, outcome } = await run({
      rounds: [reply('Bitcoin is about 40k.'), toolCall('web_search', { query: 'bitcoin price' }), reply('42 euros.')],
      decide: { needs_fresh: { needs_fresh: true, query: 'bitcoin price' } },
      parallelSideCalls: false,
    });
    assert.equal(outcome.status, 'done');
    const order = model.requests.map((r) => (r.jsonSchema ? 'side' : 'round'));
    assert.equal(order[0], 'round', order.join(','));
    assert.deepEqual(order.slice(0, 2), ['round', 'side'], 'freshness runs when the gate needs it');
    assert.ok(
      model.requests.every((r) => (r.jsonSchema ? r.lane !== 'conversation' : r.lane === 'conversation')),
      'rounds and side calls say which lane they belong to',
    );
  });

  // What the model saw, in order: a round's start and end, and each side call.
  const timeline = (log: string[]) => (model: ScriptedModel) => ({
    health: () => model.health(),
    async chat(request: ChatRequest, options?: ChatOptions) {
      if (request.jsonSchema) {
        log.push(`side:${schemaKeys(request)[0]}`);
        return model.chat(request, options);
      }
      log.push('round');
      const result = await model.chat(request, options);
      // The round stays open a few turns of the event loop, as a stream does (no clock involved).
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      log.push('round ends');
      return result;
    },
  });

  test('with a side slot, freshness goes beside the first round once the server has begun to answer it', async () => {
    const log: string[] = [];
    await run({
      rounds: [reply('Bitcoin is about 40k.'), toolCall('web_search', { query: 'b' }), reply('42.')],
      decide: { needs_fresh: { needs_fresh: true, query: 'b' } },
      parallelSideCalls: true,
      wrapModel: timeline(log),
    });
    assert.deepEqual(log.slice(0, 3), ['round', 'side:needs_fresh', 'round ends'], 'sent after the round, before it ended');
  });

  test('a first round that streams nothing (a tool call) starts freshness as it returns', async () => {
    const log: string[] = [];
    await run({
      rounds: [toolCall('web_search', { query: 'b' }), reply('42 euros, says example.org.')],
      decide: { needs_fresh: { needs_fresh: true, query: 'b' } },
      parallelSideCalls: true,
      wrapModel: timeline(log),
    });
    assert.deepEqual(log.slice(0, 3), ['round', 'round ends', 'side:needs_fresh'], log.join(', '));
    assert.equal(log.filter((l) => l === 'side:needs_fresh').length, 1, 'asked once in the turn');
  });
});

describe('turn engine: what the manual promises about rounds', () => {
  test('independent tool calls of one round run at the same time', async () => {
    const started: string[] = [];
    let bothStarted!: () => void;
    const both = new Promise<void>((r) => (bothStarted = r));
    // Each waits for the other to start; run one after the other, the first would wait out its
    // turns of the event loop alone. No clock is involved.
    const alone = async () => {
      for (let i = 0; i < 10_000; i++) await new Promise((r) => setImmediate(r));
      return 'alone';
    };
    const waiting = (name: string) =>
      defineTool({
        name,
        description: name,
        params: z.object({}),
        cost: 1,
        timeoutMs: 60_000,
        async run() {
          started.push(name);
          if (started.length === 2) bothStarted();
          return { waited: await Promise.race([both.then(() => 'together'), alone()]) };
        },
      }) as Tool;
    const { outcome, events } = await run({
      tools: [waiting('first_lookup'), waiting('second_lookup')],
      rounds: [
        reply('', {
          toolCalls: [
            { id: 'c1', name: 'first_lookup', arguments: '{}' },
            { id: 'c2', name: 'second_lookup', arguments: '{}' },
          ],
          finishReason: 'tool_calls',
        }),
        reply('Both are done.'),
      ],
      question: 'Look up both things.',
    });
    assert.equal(outcome.status, 'done');
    const results = events.filter((e) => e.type === 'tool_result') as { result?: { waited: string } }[];
    assert.deepEqual(
      results.map((r) => r.result?.waited),
      ['together', 'together'],
    );
  });

  test('words written before a tool call are set aside as a draft_rejected "tool_call" event, never shown as the answer', async () => {
    const { outcome, events } = await run({
      rounds: [
        reply('Let me look that up for you.', {
          toolCalls: [{ id: 'c1', name: 'web_search', arguments: '{"query":"bitcoin price"}' }],
          finishReason: 'tool_calls',
        }),
        reply('Bitcoin costs 42 euros, per example.org.'),
      ],
    });
    assert.equal(outcome.status, 'done');
    const rejected = events.find((e) => e.type === 'draft_rejected') as { reason?: string } | undefined;
    assert.equal(rejected?.reason, 'tool_call');
    assert.equal(outcome.status === 'done' && outcome.content, 'Bitcoin costs 42 euros, per example.org.');
  });

  test('a refusal is reported as a refusal, not as a deferral', async () => {
    const { events } = await run({
      rounds: [
        toolCall('web_search', { query: 'bitcoin price' }),
        reply("I can't answer that from the tool results."),
        reply('Bitcoin costs 42 euros, per example.org.'),
      ],
      // The patterns and the classifier agree, so the draft is set aside with no verdict call.
      classifier: DEFERRING_CLASSIFIER,
    });
    const reasons = events.filter((e) => e.type === 'draft_rejected').map((e) => (e as { reason: string }).reason);
    assert.equal(reasons[0], 'refusal');
    assert.ok(!reasons.includes('deferral'), reasons.join(','));
  });
});

test("a turn's figures: the first word's time, and the speed from llama.cpp's timings over its conversation calls", async () => {
  const { outcome } = await run({
    rounds: [reply('Paris is the capital of France.', { timings: { predictedTokens: 30, predictedMs: 600 } })],
    question: 'Capital of France?',
    research: false,
  });
  assert.equal(outcome.status, 'done');
  assert.equal(outcome.stats.tokensPerSecond, 50, '30 tokens in 600 ms');
  assert.equal(outcome.stats.firstTokenMs, 0, 'the first word came (at the fixed clock of this test)');
});
