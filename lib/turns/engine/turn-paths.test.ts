import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { HearthError } from '@/lib/shared/errors';
import type { ChatOptions, ChatRequest, ModelClient } from '@/lib/models/types';
import { reply, toolCall, type ScriptedModel } from '@/lib/dev/testing/scripted-model';
import { allText, DEFERRAL, runScriptedTurn as run, schemaKeys, UNSURE_CLASSIFIER } from '@/lib/dev/testing/turn-harness';
import type { TurnEvent } from '@/lib/contract/events';
import { TOOLS_OFF_NOTE } from './prompts';

/**
 * The turn engine's less travelled paths, one behaviour a test: llama-server's failure modes
 * and the retries around them, the answer-now attempt and what happens when it fails, calls
 * repeated within one round, how a turn ends when it is stopped or fails, and what the side
 * calls (calculation, freshness, verdict) are given. Each expectation is written out by hand.
 */

const rejected = (events: TurnEvent[]) =>
  events.flatMap((e) => (e.type === 'draft_rejected' ? [{ reason: e.reason, detail: e.detail }] : []));
const count = (text: string, part: string) => text.split(part).length - 1;
const cut = (args: string, content = '') => ({
  content,
  finishReason: 'length' as const,
  toolCalls: [{ id: 'cut', name: 'web_search', arguments: args }],
});

describe('a tool call cut off by max_tokens', () => {
  test('a whole call in a reply that hit max_tokens still runs', async () => {
    const { outcome, runs, model } = await run({
      rounds: [{ ...toolCall('web_search', { query: 'btc' }), finishReason: 'length' }, reply('42 euros, says example.org.')],
    });
    assert.deepEqual(runs, ['btc']);
    assert.equal(model.roundRequests[1].toolChoice, 'auto', 'not retried without tools');
    assert.equal(outcome.status, 'done');
  });

  test('a call with broken arguments in a reply that ended normally is no cut call: it runs and its error goes back to the model', async () => {
    const broken = { content: '', finishReason: 'stop' as const, toolCalls: [{ id: 'b', name: 'web_search', arguments: '{"query":"bt' }] };
    const { events, model } = await run({ rounds: [broken, reply('42 euros, says example.org.')] });
    assert.deepEqual(rejected(events), []);
    assert.deepEqual(
      events.flatMap((e) => (e.type === 'tool_result' ? [e.ok] : [])),
      [false],
    );
    assert.ok(model.roundRequests[1].tools?.length, 'tools are still offered');
  });

  test('one cut call among whole ones: the round is asked again without tools and nothing runs', async () => {
    const { runs, model, events } = await run({
      rounds: [
        {
          content: '',
          finishReason: 'length',
          toolCalls: [
            { id: 'a', name: 'web_search', arguments: '{"query":"btc"}' },
            { id: 'b', name: 'web_search', arguments: '{"query":"eth' },
          ],
        },
        reply('About 40k, from memory.'),
      ],
      question: 'Explain bitcoin.',
    });
    assert.deepEqual(runs, []);
    assert.equal(model.roundRequests[1].toolChoice, 'none');
    assert.deepEqual(rejected(events), [], 'no words were shown, so none are set aside');
  });

  test('words shown before a cut call are set aside, naming why', async () => {
    const { events, outcome } = await run({
      rounds: [cut('{"query":"bt', 'Let me look that up.'), reply('Closures keep their scope.')],
      question: 'Explain closures.',
    });
    assert.deepEqual(rejected(events)[0], { reason: 'tool_call', detail: 'the tool call was cut off' });
    assert.equal(outcome.status === 'done' && outcome.content, 'Closures keep their scope.');
  });

  test('in a round that allows no tools, a cut call is not retried: the answer is asked for without tools', async () => {
    const { model, outcome } = await run({
      rounds: [cut('{"query":"bt'), reply('Closures keep their scope.')],
      question: 'Explain closures.',
      config: { maxRounds: 1 },
    });
    assert.equal(model.roundRequests.length, 2);
    assert.equal(model.roundRequests[1].tools, undefined, 'the answer-now request, not the same request again');
    assert.equal(outcome.status === 'done' && outcome.content, 'Closures keep their scope.');
  });

  for (const message of ['Failed to parse tool call arguments as JSON', 'tool_call parse error', 'error parsing toolcall']) {
    test(`an older server's error "${message}" is retried once without tools, with the reason shown`, async () => {
      const { model, events, outcome } = await run({
        rounds: [
          new HearthError('model_error', `The model server answered with an error: ${message}`),
          reply('Closures keep their scope.'),
        ],
        question: 'Explain closures.',
      });
      assert.equal(model.roundRequests[1].toolChoice, 'none');
      assert.deepEqual(rejected(events), [{ reason: 'tool_call', detail: 'the tool call was cut off; answering without tools' }]);
      assert.equal(outcome.status, 'done');
    });
  }

  test('the same parse error without tools is the turn’s error, not another retry', async () => {
    const error = new HearthError('model_error', 'The model server answered with an error: Failed to parse tool call arguments');
    const { model, outcome } = await run({ rounds: [error, error, reply('never asked')], question: 'Explain closures.' });
    assert.equal(model.roundRequests.length, 2);
    assert.equal(outcome.status === 'error' && outcome.code, 'model_error');
    assert.equal(outcome.status === 'error' && outcome.message, error.message);
  });
});

describe('llama-server without --jinja', () => {
  test('the refusal without tools in the request is the turn’s error: tools are dropped once', async () => {
    const error = new HearthError('model_error', 'The model server answered with an error: tools param requires --jinja flag');
    const { model, outcome } = await run({ rounds: [error, error, reply('never asked')], question: 'Explain closures.' });
    assert.equal(model.roundRequests.length, 2);
    assert.equal(model.roundRequests[1].tools?.length ?? 0, 0);
    assert.equal(outcome.status === 'error' && outcome.message, error.message);
  });
});

test('only the model server’s own error is read for --jinja and parse failures: another error naming them ends the turn at once', async () => {
  for (const text of ['tools param requires --jinja flag', 'Failed to parse tool call arguments as JSON']) {
    const error = new HearthError('model_unreachable', `The proxy in front of the server said: ${text}`);
    const { model, outcome } = await run({ rounds: [error, reply('never asked')], question: 'Explain closures.' });
    assert.equal(model.roundRequests.length, 1, text);
    assert.equal(outcome.status === 'error' && outcome.code, 'model_unreachable', text);
  }
});

describe('tool use under "required" and without tools', () => {
  test('text under "required" is set aside as "no tool was called" and the round is asked again without tools', async () => {
    const { events, model, outcome } = await run({
      rounds: [reply(DEFERRAL), reply('Let me think about which tool.'), reply('From memory, about 40k.')],
    });
    assert.deepEqual(rejected(events).slice(1), [{ reason: 'tool_call', detail: 'no tool was called' }]);
    assert.equal(model.roundRequests[2].toolChoice, 'none');
    assert.equal(outcome.status === 'done' && outcome.content, 'From memory, about 40k.');
  });

  test('a call written as text under "required" is run, not retried', async () => {
    const { runs, model } = await run({
      rounds: [
        reply(DEFERRAL),
        reply('<tool_call>{"name": "web_search", "arguments": {"query": "btc"}}</tool_call>'),
        reply('42 euros, says example.org.'),
      ],
    });
    assert.deepEqual(runs, ['btc']);
    assert.equal(model.roundRequests[1].toolChoice, 'required');
    assert.equal(model.roundRequests.length, 3);
  });

  test('with no tool offered, call markup in the text is removed and never run', async () => {
    const { model, outcome } = await run({
      research: false,
      rounds: [reply('Closures keep their scope. <tool_call>{"name": "web_search", "arguments": {"query": "x"}}</tool_call>')],
      question: 'Explain closures.',
    });
    assert.equal(model.roundRequests.length, 1);
    assert.equal(outcome.status === 'done' && outcome.content, 'Closures keep their scope.');
  });

  test('research lost in the middle of a turn (a host resting) still gets its one nudge to answer from knowledge', async () => {
    const available = [true, false, false];
    const { events, outcome } = await run({
      parallelSideCalls: false,
      researchAvailable: () => available.shift() ?? false,
      rounds: [reply(DEFERRAL), reply(DEFERRAL), reply(DEFERRAL), reply('From memory, about 40k.')],
    });
    assert.deepEqual(
      rejected(events).map((r) => r.reason),
      ['deferral', 'tool_call', 'no_research'],
    );
    assert.equal(outcome.status === 'done' && outcome.content, 'From memory, about 40k.');
  });
});

describe('a reply with reasoning', () => {
  test('reasoning beside an answer: the answer is taken in one call', async () => {
    const { model, outcome } = await run({
      rounds: [reply('Closures keep their scope.', { reasoning: 'Simple.' })],
      question: 'Explain closures.',
      research: false,
    });
    assert.equal(model.roundRequests.length, 1);
    assert.equal(outcome.status === 'done' && outcome.content, 'Closures keep their scope.');
  });

  test('reasoning and only blank text: asked again with thinking off', async () => {
    const { model } = await run({
      rounds: [reply(' \n', { reasoning: 'Hmm.' }), reply('Closures keep their scope.')],
      question: 'Explain closures.',
      research: false,
    });
    assert.deepEqual(model.roundRequests[1].extra, { chat_template_kwargs: { enable_thinking: false } });
    assert.equal(model.roundRequests[1].toolChoice, undefined, 'the same round, not the answer-now request (which has no tools either)');
    assert.deepEqual(
      model.roundRequests[1].messages,
      model.roundRequests[0].messages,
      'asked again as it was: not the answer-now request with its note',
    );
  });

  test('reasoning beside a tool call: the call runs', async () => {
    const { runs, model } = await run({
      rounds: [{ ...toolCall('web_search', { query: 'btc' }), reasoning: 'Search it.' }, reply('42 euros, says example.org.')],
    });
    assert.deepEqual(runs, ['btc']);
    assert.equal(model.roundRequests[1].extra, undefined);
  });

  test('blank reasoning and no text is no reasoning: straight to the answer-now request', async () => {
    const { model } = await run({
      rounds: [reply('', { reasoning: '  ' }), reply('Closures keep their scope.')],
      question: 'Explain closures.',
    });
    assert.equal(model.roundRequests[1].tools, undefined);
  });
});

describe('the answer-now request', () => {
  const lastUser = (req: ChatRequest) => req.messages.filter((m) => m.role === 'user');

  test('its note joins the question itself when the question is the first message', async () => {
    const { model } = await run({ layers: false, question: 'Explain closures.', rounds: [reply(''), reply('Closures keep their scope.')] });
    const users = lastUser(model.roundRequests[1]);
    assert.equal(users.length, 1);
    assert.match(String(users[0].content), /^Explain closures\.[\s\S]*Answer the question above now/);
  });

  test('its note goes on the latest user message, not on an answer after it nor on earlier questions', async () => {
    const { model } = await run({
      layers: false,
      history: [
        { role: 'user', content: 'First question.' },
        { role: 'assistant', content: 'First answer.' },
        { role: 'user', content: 'Explain closures.' },
        { role: 'assistant', content: 'Closures' },
      ],
      question: 'Explain closures.',
      rounds: [reply(''), reply('Closures keep their scope.')],
    });
    const messages = model.roundRequests[1].messages.map((m) => String(m.content));
    assert.equal(messages.length, 4);
    assert.equal(messages[0], 'First question.');
    assert.equal(messages[1], 'First answer.');
    assert.match(messages[2], /^Explain closures\.[\s\S]*Answer the question above now/);
    assert.equal(messages[3], 'Closures');
  });

  test('a conversation without a user message gets the note as one', async () => {
    const { model } = await run({
      layers: false,
      history: [{ role: 'assistant', content: 'Hello.' }],
      question: 'Explain closures.',
      rounds: [reply(''), reply('Closures keep their scope.')],
    });
    const last = model.roundRequests[1].messages.at(-1);
    assert.equal(last?.role, 'user');
    assert.match(String(last?.content), /^\[Hearth\] No more tools can be called\./);
  });
});

describe('when the answer-now request fails', () => {
  const searched = toolCall('web_search', { query: 'bitcoin price' });

  test('with results gathered, the answer is compiled and the failure named in the diagnostics', async () => {
    const { outcome } = await run({
      rounds: [searched, reply(''), new HearthError('model_error', 'The model server answered with an error: boom')],
      config: { maxRounds: 2 },
    });
    assert.equal(outcome.status, 'done');
    assert.equal(outcome.stats.compiled, true);
    assert.ok(
      outcome.diagnostics.includes(
        'the last answer attempt failed (The model server answered with an error: boom); compiled from the tool results',
      ),
      JSON.stringify(outcome.diagnostics),
    );
  });

  test('with results gathered, a cancelled attempt cancels the turn (nothing is compiled)', async () => {
    const { outcome } = await run({ rounds: [searched, reply(''), new HearthError('cancelled', 'stopped')], config: { maxRounds: 2 } });
    assert.equal(outcome.status, 'cancelled');
  });

  test('with results gathered, a Stop during the attempt cancels the turn whatever the error says', async () => {
    const stop = new AbortController();
    const { outcome } = await run({
      rounds: [
        searched,
        reply(''),
        () => {
          stop.abort();
          return new Error('socket closed');
        },
      ],
      config: { maxRounds: 2 },
      signal: stop.signal,
    });
    assert.equal(outcome.status, 'cancelled');
  });

  test('with nothing gathered, the attempt’s own error is the turn’s', async () => {
    const { outcome } = await run({
      rounds: [reply(''), new HearthError('model_error', 'The model server answered with an error: boom')],
      question: 'Explain closures.',
    });
    assert.equal(outcome.status === 'error' && outcome.message, 'The model server answered with an error: boom');
  });

  test('with nothing gathered and nothing written, the turn says the answer was empty', async () => {
    const { outcome } = await run({ rounds: [reply(''), reply('')], question: 'Explain closures.' });
    assert.equal(outcome.status === 'error' && outcome.code, 'model_error');
    assert.equal(outcome.status === 'error' && outcome.message, 'The model returned an empty answer.');
  });

  test('a failed tool call gathers nothing to compile from', async () => {
    const { outcome } = await run({ rounds: [toolCall('web_search', { query: 'fail' }), reply(''), reply('')], config: { maxRounds: 2 } });
    assert.equal(outcome.status === 'error' && outcome.message, 'The model returned an empty answer.');
  });
});

describe('calls repeated within one round', () => {
  test('the second of two identical calls is answered from the first, which runs once', async () => {
    const twice = {
      content: '',
      finishReason: 'tool_calls' as const,
      toolCalls: [
        { id: 'a', name: 'web_search', arguments: '{"query":"btc"}' },
        { id: 'b', name: 'web_search', arguments: '{"query":"BTC "}' },
      ],
    };
    const { runs, events, model } = await run({ rounds: [twice, reply('42 euros, says example.org.')] });
    assert.deepEqual(runs, ['btc']);
    const results = events.flatMap((e) => (e.type === 'tool_result' ? [{ id: e.id, repeat: e.repeat === true }] : []));
    assert.deepEqual(results, [
      { id: 'a', repeat: false },
      { id: 'b', repeat: true },
    ]);
    const toolMessages = model.roundRequests[1].messages.flatMap((m) =>
      m.role === 'tool' ? [{ id: m.tool_call_id, body: JSON.parse(m.content) }] : [],
    );
    assert.deepEqual(
      toolMessages.map((m) => m.id),
      ['a', 'b'],
    );
    assert.equal(toolMessages[0].body.results[0].title, 'About btc');
    assert.equal(toolMessages[1].body.repeat, true);
    assert.equal(toolMessages[1].body.result.results[0].title, 'About btc');
  });

  test('repeats within rounds count towards taking tools away', async () => {
    const pair = (q: string) => ({
      content: '',
      finishReason: 'tool_calls' as const,
      toolCalls: [
        { id: `${q}1`, name: 'web_search', arguments: JSON.stringify({ query: q }) },
        { id: `${q}2`, name: 'web_search', arguments: JSON.stringify({ query: q }) },
      ],
    });
    const { model } = await run({ rounds: [pair('a'), pair('b'), reply('42 euros, says example.org.')] });
    assert.equal(model.roundRequests[1].toolChoice, 'auto', 'one repeat');
    assert.equal(model.roundRequests[2].toolChoice, 'none', 'two repeats');
  });
});

test('the note that tools are off is added once, in the round they go', async () => {
  const search = toolCall('web_search', { query: 'btc' });
  const { model } = await run({ rounds: [search, search, search, reply(DEFERRAL), reply('42 euros, says example.org.')] });
  const notes = model.roundRequests.map((r) => count(allText(r), TOOLS_OFF_NOTE));
  assert.deepEqual(notes, [0, 0, 0, 1, 1]);
});

describe('how a turn ends', () => {
  test('a turn allowed no rounds ends in an error without calling the model', async () => {
    const { outcome, model } = await run({ rounds: [reply('never asked')], question: 'Explain closures.', config: { maxRounds: 0 } });
    assert.equal(model.roundRequests.length, 0);
    assert.equal(outcome.status === 'error' && outcome.message, 'The turn ended without an answer.');
  });

  /** A turn whose first round is stopped from outside with this reason. */
  const stoppedWith = (reason: HearthError) => {
    const stop = new AbortController();
    return run({
      rounds: [
        () => {
          stop.abort(reason);
          return new Error('aborted');
        },
      ],
      signal: stop.signal,
      question: 'Explain closures.',
    });
  };

  test('stopped for a reason of Hearth’s own (a full disk): an error with that reason', async () => {
    const { outcome } = await stoppedWith(new HearthError('storage_full', 'The disk is full.'));
    assert.equal(outcome.status === 'error' && outcome.code, 'storage_full');
    assert.equal(outcome.status === 'error' && outcome.message, 'The disk is full.');
  });

  test('the store failing after a tool ran: the words written before the call are not kept as the partial answer', async () => {
    const { outcome } = await run({
      rounds: [{ ...toolCall('web_search', { query: 'btc' }), content: 'Let me look that up.' }, reply('never asked')],
      append: (step) => {
        if (step.kind === 'tool') throw new HearthError('storage_full', 'The disk is full.');
      },
    });
    assert.equal(outcome.status === 'error' && outcome.code, 'storage_full');
    assert.equal(outcome.status === 'error' && outcome.partial, '');
  });

  test('a Stop whose reason is Hearth’s own "cancelled" is a cancel, not an error', async () => {
    const { outcome } = await stoppedWith(new HearthError('cancelled', 'Stopped.'));
    assert.equal(outcome.status, 'cancelled');
  });

  test('a draft set aside by the free check says which words deferred', async () => {
    const { events } = await run({
      rounds: [reply(DEFERRAL), toolCall('web_search', { query: 'btc' }), reply('42 euros, says example.org.')],
    });
    assert.deepEqual(rejected(events)[0], { reason: 'deferral', detail: 'I can search for' });
  });

  test('a "cancelled" error without a Stop still cancels', async () => {
    const { outcome } = await run({ rounds: [new HearthError('cancelled', 'The turn was stopped.')], question: 'Explain closures.' });
    assert.equal(outcome.status, 'cancelled');
  });

  test('a Stop before any word: the partial answer is empty', async () => {
    const stop = new AbortController();
    stop.abort();
    const { outcome } = await run({ rounds: [reply('never asked')], signal: stop.signal, question: 'Explain closures.' });
    assert.equal(outcome.status, 'cancelled');
    assert.equal(outcome.status === 'cancelled' && outcome.partial, '');
  });

  test('words before a call are not the partial answer when the call cannot run', async () => {
    const { outcome } = await run({
      rounds: [{ ...toolCall('web_search', { query: 'btc' }), content: 'Let me check.' }],
      config: { budget: { fuel: 102, modelCalls: 16, modelCallCost: 100 } },
    });
    assert.equal(outcome.status === 'error' && outcome.code, 'budget_exhausted');
    assert.equal(outcome.status === 'error' && outcome.partial, '');
  });

  for (const [thrown, message] of [
    ['boom', 'The turn failed: boom'],
    [null, 'The turn failed: null'],
  ] as const) {
    test(`a thrown ${JSON.stringify(thrown)} (not an Error) ends the turn as an internal error`, async () => {
      const { outcome } = await run({
        rounds: [
          () => {
            throw thrown;
          },
        ],
        question: 'Explain closures.',
      });
      assert.equal(outcome.status === 'error' && outcome.code, 'internal');
      assert.equal(outcome.status === 'error' && outcome.message, message);
    });
  }

  test('a plain turn leaves no diagnostics', async () => {
    const { outcome } = await run({ rounds: [reply('Closures keep their scope.')], question: 'Explain closures.' });
    assert.deepEqual(outcome.diagnostics, []);
  });
});

describe('what the user sees stream', () => {
  test('no empty piece of text is ever sent', async () => {
    const { events } = await run({ rounds: [toolCall('web_search', { query: 'btc' }), reply('42 euros, says example.org.')] });
    const deltas = events.flatMap((e) => (e.type === 'delta' ? [e.text] : []));
    assert.ok(deltas.length > 0, 'the answer streamed');
    assert.deepEqual(
      deltas.filter((t) => t === ''),
      [],
    );
  });

  test('only blank text before a call is not set aside as a draft', async () => {
    const blankFirst = (model: ScriptedModel): ModelClient => ({
      health: () => model.health(),
      chat: (req: ChatRequest, options?: ChatOptions) => {
        if (!req.jsonSchema) options?.onDelta?.('\n\n');
        return model.chat(req, options);
      },
    });
    const { events } = await run({
      wrapModel: blankFirst,
      rounds: [toolCall('web_search', { query: 'btc' }), reply('42 euros, says example.org.')],
    });
    assert.deepEqual(rejected(events), []);
  });
});

describe('the side calls', () => {
  const arithmetic = { is_arithmetic: { is_arithmetic: true }, expression: { expression: '1 / 3 + 2' } };

  test('an exact fraction is given beside its decimals, to the event, the answering round and the verdict', async () => {
    const { events, model } = await run({
      question: 'What is 1 / 3 + 2?',
      rounds: [reply('About 2.33.')],
      decide: arithmetic,
      classifier: UNSURE_CLASSIFIER,
    });
    assert.deepEqual(
      events.filter((e) => e.type === 'calculation'),
      [{ type: 'calculation', expression: '1 / 3 + 2', result: '2.3333333333333333333', exact: true, fraction: '7/3' }],
    );
    assert.match(allText(model.roundRequests[0]), /The exact result is 2\.3333333333333333333 \(exactly 7\/3\) \(plan: 1 \/ 3 \+ 2\)/);
    const verdict = model.decideRequests.find((r) => schemaKeys(r).includes('verdict'));
    assert.ok(verdict, 'the verdict was asked');
    assert.match(allText(verdict), /Tool results in this turn:\ncalculation: 1 \/ 3 \+ 2 = 2\.3333333333333333333\n/);
  });

  test('arithmetic the check says is not arithmetic gets no plan', async () => {
    const { events, model } = await run({
      question: 'What is 1 / 3 + 2?',
      rounds: [reply('About 2.33.')],
      decide: { ...arithmetic, is_arithmetic: { is_arithmetic: false } },
    });
    assert.ok(!model.decideRequests.some((r) => schemaKeys(r).includes('expression')), 'no plan asked');
    assert.ok(!events.some((e) => e.type === 'calculation'));
  });

  test('an arithmetic check that cannot answer lets the turn go on without a plan', async () => {
    const { outcome, model } = await run({
      question: 'What is 1 / 3 + 2?',
      rounds: [reply('About 2.33.')],
      decide: { ...arithmetic, is_arithmetic: new Error('slot busy') },
    });
    assert.equal(outcome.status, 'done');
    assert.ok(!model.decideRequests.some((r) => schemaKeys(r).includes('expression')), 'no plan asked');
  });

  test('the verdict reads each tool result and failure by name', async () => {
    const { model } = await run({
      rounds: [toolCall('web_search', { query: 'fail' }), toolCall('web_search', { query: 'btc' }), reply('42 euros, says example.org.')],
      classifier: UNSURE_CLASSIFIER,
    });
    const verdict = model.decideRequests.find((r) => schemaKeys(r).includes('verdict'));
    assert.ok(verdict, 'the verdict was asked');
    assert.match(
      allText(verdict),
      /Tool results in this turn:\nweb_search failed: the search service did not answer\nweb_search: \{"results":\[\{"title":"About btc","url":"https:\/\/example.org","snippet":"It costs 42 euros."\}\]\}\n/,
    );
  });

  test('freshness is asked of the question alone, and its call is stopped when the turn ends', async () => {
    const signals: AbortSignal[] = [];
    const watch = (model: ScriptedModel): ModelClient => ({
      health: () => model.health(),
      chat: (req: ChatRequest, options?: ChatOptions) => {
        if (req.jsonSchema && schemaKeys(req).includes('needs_fresh') && options?.signal) signals.push(options.signal);
        return model.chat(req, options);
      },
    });
    const turnSignal = new AbortController().signal;
    const { model, outcome } = await run({
      wrapModel: watch,
      signal: turnSignal,
      rounds: [toolCall('web_search', { query: 'btc' }), reply('42 euros, says example.org.')],
    });
    assert.equal(outcome.status, 'done');
    const fresh = model.decideRequests.find((r) => schemaKeys(r).includes('needs_fresh'));
    assert.equal(fresh?.messages.at(-1)?.content, 'Question:\nWhat is the price of bitcoin?');
    assert.equal(signals.length, 1);
    assert.equal(signals[0].aborted, true, 'the freshness call is stopped with the turn');
    assert.equal(turnSignal.aborted, false, 'the turn itself was not stopped');
  });

  test('freshness stopped for another reason than budget is not named as skipped for budget', async () => {
    const { outcome, model } = await run({
      rounds: [reply('Bitcoin is a cryptocurrency.')],
      decide: { needs_fresh: new HearthError('cancelled', 'Stopped.') },
    });
    assert.ok(
      model.decideRequests.some((r) => schemaKeys(r).includes('needs_fresh')),
      'freshness was asked',
    );
    assert.equal(outcome.status, 'done');
    assert.deepEqual(
      outcome.diagnostics.filter((d) => d.startsWith('freshness')),
      [],
    );
  });

  test('freshness skipped for want of budget is named in the diagnostics and the draft goes through', async () => {
    const { outcome } = await run({
      parallelSideCalls: false,
      rounds: [reply('Bitcoin is a cryptocurrency.')],
      config: { budget: { fuel: 10_000, modelCalls: 1, modelCallCost: 100 } },
    });
    assert.equal(outcome.status, 'done');
    assert.ok(outcome.diagnostics.includes('freshness check skipped: budget'), JSON.stringify(outcome.diagnostics));
  });

  test('a turn’s stored steps are named by kind, in order', async () => {
    const { appended } = await run({
      question: 'What is 1 / 3 + 2?',
      rounds: [toolCall('web_search', { query: 'btc' }), reply('About 2.33.')],
      decide: arithmetic,
      classifier: UNSURE_CLASSIFIER,
    });
    assert.deepEqual(
      appended.map((s) => s.kind),
      ['decision:arithmetic', 'plan', 'model', 'tool', 'model', 'decision:deferral_classifier', 'decision:verdict', 'decision:acceptance'],
    );
  });
});

describe('the turn’s clock', () => {
  const ticking = () => {
    let t = 0;
    return () => (t += 10);
  };

  test('a model call that fails still counts its time', async () => {
    const { outcome } = await run({
      now: ticking(),
      research: false,
      rounds: [new HearthError('model_unreachable', 'down')],
      question: 'Explain closures.',
    });
    assert.equal(outcome.status === 'error' && outcome.code, 'model_unreachable');
    assert.equal(outcome.stats.modelMs, 10, 'one tick between the call’s start and its end');
  });

  test('on a clock that has not moved, a turn and its tool calls took no time', async () => {
    const { outcome, events } = await run({
      now: () => 1_000_000,
      rounds: [toolCall('web_search', { query: 'btc' }), reply('42 euros, says example.org.')],
    });
    assert.equal(outcome.status, 'done');
    assert.deepEqual([outcome.stats.ms, outcome.stats.modelMs], [0, 0]);
    assert.deepEqual(
      events.flatMap((e) => (e.type === 'tool_result' ? [e.ms] : [])),
      [0],
    );
  });

  test('a turn that fails at its first side call, before any answer round, has written nothing', async () => {
    const down = (model: ScriptedModel): ModelClient => ({
      health: () => model.health(),
      chat: async () => {
        throw new HearthError('model_unreachable', 'down');
      },
    });
    const { outcome } = await run({ wrapModel: down, question: 'What is 23 * 47 + 156?', rounds: [reply('Never sent.')] });
    assert.deepEqual(
      [outcome.status, outcome.status === 'error' && outcome.code, outcome.status !== 'done' && outcome.partial],
      ['error', 'model_unreachable', ''],
    );
  });

  test('side calls’ timings do not count towards the generation speed', async () => {
    const timed = (model: ScriptedModel): ModelClient => ({
      health: () => model.health(),
      chat: async (req: ChatRequest, options?: ChatOptions) => {
        const result = await model.chat(req, options);
        return {
          ...result,
          timings: req.jsonSchema ? { predictedTokens: 1, predictedMs: 1000 } : { predictedTokens: 20, predictedMs: 100 },
        };
      },
    });
    const { outcome } = await run({ wrapModel: timed, rounds: [reply('Bitcoin is a cryptocurrency.')] });
    assert.ok(outcome.stats.modelCalls > 1, 'side calls were made');
    assert.equal(outcome.stats.tokensPerSecond, 200);
  });
});
