import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Store } from '@/db/store';
import type { EngineConfig } from '@/lib/turns/engine/turn';
import { HearthError } from '@/lib/shared/errors';
import { ModelPool } from '@/lib/models/pool';
import type { ModelClient } from '@/lib/models/types';
import { decideBy, reply, scriptedModel, toolCall, type ScriptedReply } from '@/lib/dev/testing/scripted-model';
import { freshStore, seedExchange, sqliteOf } from '@/lib/dev/testing/store';
import { lookupTool as lookup } from '@/lib/dev/testing/turn-harness';
import { createToolRegistry } from '@/lib/tools/registry';
import { STANDING_COUNT } from '@/lib/data/memory/facts';
import { titleFrom, TurnSupervisor, type RegistryOptions, type StreamedEvent, type TurnStore } from './supervisor';

/**
 * The turn supervisor over a real database and a scripted model: what a turn stores as it runs
 * and as it ends, how it is started, edited, regenerated, stopped and resumed, and what a
 * client that attaches hears. The clock moves only when a test moves it.
 */

type Setup = {
  rounds?: ScriptedReply[];
  engine?: Partial<EngineConfig>;
  /** One of the store's writes fails with `error` whenever `when` says so (a full disk, a broken file). */
  failWrite?: {
    method: 'appendEvent' | 'setTurnStatus' | 'storeCompactLog' | 'decisionRowsOfThread';
    when: (args: Record<string, unknown>) => boolean;
    error: Error;
  };
  store?: Store;
  /** Web research is on: the gate asks its verdict of answers. */
  research?: boolean;
  /** What the registry's options add beside these (images' data, the titler). */
  options?: Partial<RegistryOptions>;
  /** The model as the pool sees it (a test may hold its calls back). */
  wrapModel?: (model: ModelClient) => ModelClient;
};

async function setup(opts: Setup = {}) {
  const store = opts.store ?? freshStore();
  const model = scriptedModel({ rounds: opts.rounds ?? [], decide: decideBy({}) });
  const pool = new ModelPool([{ url: 'scripted', client: opts.wrapModel ? opts.wrapModel(model) : model }]);
  const clock = { t: 1000 };
  const logs: string[] = [];
  const failing = opts.failWrite;
  const written: TurnStore = failing
    ? {
        ...store,
        [failing.method]: async (args: Record<string, unknown>) => {
          if (failing.when(args)) throw failing.error;
          return (store[failing.method] as (a: Record<string, unknown>) => Promise<unknown>)(args);
        },
      }
    : store;
  const registry = new TurnSupervisor({
    store: written,
    models: () => pool,
    tools: () => ({
      registry: createToolRegistry([lookup]),
      researchAvailable: async () => opts.research ?? false,
      deps: (threadId) => ({ now: () => 0, timezone: 'UTC', threadId }),
    }),
    now: () => clock.t,
    identity: () => ({ assistantName: 'Hearth', timezone: 'UTC' }),
    engine: () => opts.engine ?? {},
    log: (m) => logs.push(m),
    ...opts.options,
  });
  if (!(await store.getThread({ id: 'th' }))) await store.createThread({ id: 'th', title: '', now: 0 });
  return { store, model, pool, registry, clock, logs };
}

/** Starts a turn and collects what a client attached from the start hears, until the end. */
async function converse(
  registry: TurnSupervisor,
  content: string,
  extra: { attachmentIds?: string[]; editOf?: string; threadId?: string } = {},
) {
  const ids = await registry.start({ threadId: extra.threadId ?? 'th', content, ...extra });
  const heard = await listen(registry, ids.turnId);
  return { ...ids, heard };
}

/** What a client attached from the start hears: the stored backlog, then live events until the turn ends. */
async function listen(
  registry: TurnSupervisor,
  turnId: string,
  onEvent: (e: StreamedEvent) => void = () => undefined,
): Promise<StreamedEvent[]> {
  const heard: StreamedEvent[] = [];
  await registry.follow(turnId, (e) => {
    heard.push(e);
    onEvent(e);
  });
  return heard;
}

const types = (events: { type: string }[]) => events.map((e) => e.type);

describe('a turn from start to end', () => {
  test('a partial save the store answers late never lands over the finished answer', async () => {
    // A store that answers a few turns of the event loop later (PostgreSQL, or another request's transaction open).
    const fast = freshStore();
    const later = async <T>(answer: T) => {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      return answer;
    };
    const store = { ...fast, getTurn: async (args: { id: string }) => later(await fast.getTurn(args)) } as typeof fast;
    const { registry } = await setup({ store, rounds: [reply('Closures keep their scope.')] });
    const { assistantMessageId } = await converse(registry, 'Explain closures');
    await registry.idle();
    const answer = await fast.getMessage({ id: assistantMessageId });
    assert.deepEqual([answer?.content, answer?.status], ['Closures keep their scope.', 'complete']);
  });

  test('the question and the answer are stored, the branch moves to the answer, the thread is titled and touched', async () => {
    const { registry, store, clock } = await setup({ rounds: [reply('Closures keep their scope.')] });
    clock.t = 5000;
    const { turnId, userMessageId, assistantMessageId, heard } = await converse(registry, '  Explain   closures\nplease  ');
    // The classifier's judgement of the draft is a decision like the others.
    // The checks: the classifier's reading, the verdict, and which judge accepted the answer.
    assert.deepEqual(types(heard), [
      'turn',
      'status',
      'delta',
      'delta',
      'delta',
      'delta',
      'status',
      'decision',
      'decision',
      'decision',
      'message',
      'done',
    ]);
    assert.deepEqual(heard[0], { type: 'turn', turnId, threadId: 'th', userMessageId, assistantMessageId, seq: 1 });
    assert.deepEqual(
      heard.map((e) => e.seq),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    );
    const user = await store.getMessage({ id: userMessageId });
    const answer = await store.getMessage({ id: assistantMessageId });
    assert.deepEqual(
      [user?.content, user?.role, user?.parentId, user?.status, user?.createdAt],
      ['  Explain   closures\nplease  ', 'user', null, 'complete', 5000],
    );
    assert.deepEqual(
      [answer?.content, answer?.status, answer?.parentId, answer?.errorCode, answer?.createdAt],
      ['Closures keep their scope.', 'complete', userMessageId, null, 5001],
    );
    const thread = await store.getThread({ id: 'th' });
    assert.equal(thread?.currentLeafId, assistantMessageId);
    assert.equal(thread?.title, 'Explain closures please');
    assert.equal(thread?.updatedAt, 5000);
    const turn = await store.getTurn({ id: turnId });
    assert.deepEqual([turn?.status, turn?.finishedAt], ['done', 5000]);
    assert.equal(registry.isLive(turnId), false);
    assert.equal(await registry.busy('th'), false);
  });

  test('a finished turn replays to a client as it was heard, from its compacted log', async () => {
    const { registry, store } = await setup({ rounds: [toolCall('lookup', { q: 'x' }, 'c1'), reply('Found x.')] });
    const { turnId, heard } = await converse(registry, 'Look up x.');
    assert.ok((await store.getTurn({ id: turnId }))?.events, 'compacted');
    assert.deepEqual(await store.stepsOf({ turnId }), [], 'its steps are gone');
    const replay = await listen(registry, turnId);
    // Stages and single words are what a live client needs; a finished turn is kept as what was said.
    const said = (events: StreamedEvent[]) => events.filter((e) => !['delta', 'status', 'draft', 'done'].includes(e.type));
    assert.deepEqual(said(replay), said(heard));
    assert.deepEqual(
      replay.filter((e) => e.type === 'draft').map((e) => e.type === 'draft' && e.text),
      ['Found x.'],
      'the answer’s words as one draft',
    );
    const done = (events: StreamedEvent[]) => events.find((e) => e.type === 'done');
    assert.equal(done(replay)?.type === 'done' && done(replay)?.seq, done(heard)?.seq);
    const after3: StreamedEvent[] = [];
    const sub = await registry.subscribe(turnId, 3, { event: (e) => after3.push(e), end: () => undefined });
    assert.equal(sub.live, false);
    assert.ok(after3.every((e) => e.seq > 3));
  });

  test('the next question follows the answer shown, and the model sees the conversation so far', async () => {
    const { registry, store, model } = await setup({ rounds: [reply('First answer.'), reply('Second answer.')] });
    const first = await converse(registry, 'First question?');
    const second = await converse(registry, 'Second question?');
    assert.equal((await store.getMessage({ id: second.userMessageId }))?.parentId, first.assistantMessageId);
    const sent = model.roundRequests[1].messages.filter((m) => m.role !== 'system').map((m) => [m.role, String(m.content)]);
    assert.deepEqual(sent.slice(0, 2), [
      ['user', 'First question?'],
      ['assistant', 'First answer.'],
    ]);
    assert.match(sent[2][1], /Second question\?/);
    assert.equal((await store.getThread({ id: 'th' }))?.title, 'First question?', 'a title is kept');
  });

  test('tool calls are stored under the turn with their arguments, results and failures', async () => {
    const { registry, store } = await setup({
      rounds: [
        {
          content: '',
          finishReason: 'tool_calls',
          toolCalls: [
            { id: 'c1', name: 'lookup', arguments: '{"q":"x"}' },
            { id: 'c2', name: 'lookup', arguments: '{"q":"fail"}' },
          ],
        },
        toolCall('lookup', { q: 'x' }, 'c3'),
        reply('Found x.'),
      ],
    });
    const { turnId } = await converse(registry, 'Look up x.');
    const calls = (await store.listToolCallsForThread({ threadId: 'th' })).map((c) => [
      c.id,
      c.name,
      c.arguments,
      c.ok,
      JSON.parse(c.result),
      c.repeat,
    ]);
    assert.deepEqual(calls.sort(), [
      [`${turnId}:c1`, 'lookup', '{"q":"x"}', true, { found: 'x' }, false],
      [`${turnId}:c2`, 'lookup', '{"q":"fail"}', false, { error: 'nothing found' }, false],
      [
        `${turnId}:c3`,
        'lookup',
        '{"q":"x"}',
        true,
        { repeat: true, note: calls.find((c) => c[0] === `${turnId}:c3`)?.[4].note, result: { found: 'x' } },
        true,
      ],
    ]);
  });
});

describe('starting a turn', () => {
  test('a thread that does not exist: not_found, nothing stored', async () => {
    const { registry } = await setup();
    await assert.rejects(
      () => registry.start({ threadId: 'missing', content: 'Hi' }),
      (e: unknown) => e instanceof HearthError && e.code === 'not_found',
    );
  });

  test('while a turn of the thread runs, another is refused with turn_running', async () => {
    const { registry, store } = await setup({ rounds: [reply('One.')] });
    const first = await registry.start({ threadId: 'th', content: 'One?' });
    assert.equal(await registry.busy('th'), true);
    await assert.rejects(
      () => registry.start({ threadId: 'th', content: 'Two?' }),
      (e: unknown) => e instanceof HearthError && e.code === 'turn_running' && /still being written/.test(e.message),
    );
    await assert.rejects(
      () => registry.regenerate({ threadId: 'th', messageId: first.assistantMessageId }),
      (e: unknown) => e instanceof HearthError && e.code === 'turn_running',
    );
    await registry.idle();
    assert.equal((await store.listMessages({ threadId: 'th' })).length, 2);
  });

  test('an unknown attachment rolls the whole question back', async () => {
    const { registry, store } = await setup();
    await store.insertAttachment({ id: 'f', name: 'f.txt', mime: 'text/plain', size: 1, sha256: 's', text: 'x', now: 1 });
    await assert.rejects(
      () => registry.start({ threadId: 'th', content: 'Read this.', attachmentIds: ['f', 'nope'] }),
      (e: unknown) => e instanceof HearthError && e.code === 'bad_request' && /attachmentIds/.test(e.message),
    );
    assert.equal((await store.listMessages({ threadId: 'th' })).length, 0);
    assert.equal((await store.attachmentFile({ id: 'f' }))?.messageId, null);
    assert.equal((await store.getThread({ id: 'th' }))?.title, '');
  });

  test('the same attachment named twice is linked once', async () => {
    const { registry, store } = await setup({ rounds: [reply('Read.')] });
    await store.insertAttachment({ id: 'f', name: 'f.txt', mime: 'text/plain', size: 1, sha256: 's', text: 'x', now: 1 });
    const { userMessageId } = await converse(registry, 'Read this.', { attachmentIds: ['f', 'f'] });
    assert.equal((await store.attachmentFile({ id: 'f' }))?.messageId, userMessageId);
  });

  test('an edited question starts a branch beside the old one, with its files', async () => {
    const { registry, store } = await setup({ rounds: [reply('One.'), reply('Two.'), reply('Edited.')] });
    await store.insertAttachment({ id: 'f', name: 'f.txt', mime: 'text/plain', size: 1, sha256: 's', text: 'x', now: 1 });
    const first = await converse(registry, 'First?');
    const second = await converse(registry, 'Second?', { attachmentIds: ['f'] });
    const edited = await converse(registry, 'Second, edited?', { editOf: second.userMessageId });
    assert.equal((await store.getMessage({ id: edited.userMessageId }))?.parentId, first.assistantMessageId);
    assert.equal((await store.getThread({ id: 'th' }))?.currentLeafId, edited.assistantMessageId);
    const files = (await store.attachmentsOfThread({ threadId: 'th' })).filter((a) => a.messageId === edited.userMessageId);
    assert.deepEqual(
      files.map((f) => f.sha256),
      ['s'],
    );
    assert.ok(await store.getMessage({ id: second.userMessageId }), 'the old branch stays');
    await assert.rejects(
      () => registry.start({ threadId: 'th', content: 'x', editOf: 'missing' }),
      (e: unknown) => e instanceof HearthError && e.code === 'not_found' && /editOf/.test(e.message),
    );
    await assert.rejects(
      () => registry.start({ threadId: 'th', content: 'x', editOf: edited.assistantMessageId }),
      (e: unknown) => e instanceof HearthError && e.code === 'bad_request' && /only a question/.test(e.message),
    );
  });

  test('a first question edited has no parent either', async () => {
    const { registry, store } = await setup({ rounds: [reply('One.'), reply('Edited.')] });
    const first = await converse(registry, 'First?');
    const edited = await converse(registry, 'First, edited?', { editOf: first.userMessageId });
    assert.equal((await store.getMessage({ id: edited.userMessageId }))?.parentId, null);
  });
});

describe('regenerating an answer', () => {
  test('a new answer to the same question, beside the old one; from the question itself too', async () => {
    const { registry, store } = await setup({ rounds: [reply('One.'), reply('Again.'), reply('Once more.')] });
    const first = await converse(registry, 'Question?');
    const again = await registry.regenerate({ threadId: 'th', messageId: first.assistantMessageId });
    assert.equal(again.userMessageId, first.userMessageId);
    await listen(registry, again.turnId);
    assert.equal((await store.getMessage({ id: again.assistantMessageId }))?.parentId, first.userMessageId);
    assert.equal((await store.getMessage({ id: again.assistantMessageId }))?.content, 'Again.');
    assert.equal((await store.getThread({ id: 'th' }))?.currentLeafId, again.assistantMessageId);
    const fromQuestion = await registry.regenerate({ threadId: 'th', messageId: first.userMessageId });
    await listen(registry, fromQuestion.turnId);
    assert.equal((await store.getMessage({ id: fromQuestion.assistantMessageId }))?.content, 'Once more.');
    assert.equal((await store.listMessages({ threadId: 'th' })).length, 4);
  });

  test('an unknown message, or an answer without a question, cannot be regenerated', async () => {
    const { registry, store } = await setup();
    await assert.rejects(
      () => registry.regenerate({ threadId: 'th', messageId: 'missing' }),
      (e: unknown) => e instanceof HearthError && e.code === 'not_found' && e.message === 'There is no such message in this thread.',
    );
    await store.insertMessage({
      id: 'orphan',
      threadId: 'th',
      turnId: null,
      parentId: null,
      role: 'assistant',
      content: 'Hello.',
      status: 'complete',
      now: 1,
    });
    const noQuestion = (e: unknown) =>
      e instanceof HearthError && e.code === 'bad_request' && e.message === 'That answer has no question to answer again.';
    await assert.rejects(() => registry.regenerate({ threadId: 'th', messageId: 'orphan' }), noQuestion);
    await store.insertMessage({
      id: 'after-answer',
      threadId: 'th',
      turnId: null,
      parentId: 'orphan',
      role: 'assistant',
      content: 'And?',
      status: 'complete',
      now: 2,
    });
    await assert.rejects(
      () => registry.regenerate({ threadId: 'th', messageId: 'after-answer' }),
      noQuestion,
      'an answer whose parent is an answer',
    );
    assert.equal((await store.listMessages({ threadId: 'th' })).length, 2, 'nothing stored');
  });
});

describe('a turn that does not end well', () => {
  /** A model that streams `words` as the answer, then fails with what `then` gives. */
  const writesThenFails =
    (words: string, then: () => Error) =>
    (model: ModelClient): ModelClient => ({
      health: () => model.health(),
      chat: async (req, options) => {
        if (req.jsonSchema) return model.chat(req, options);
        options?.onDelta?.(words);
        throw then();
      },
    });

  test('a model error: the message keeps what was written, marked with the code; the client hears the reason', async () => {
    const { registry, store } = await setup({
      wrapModel: writesThenFails('Closures keep', () => new HearthError('model_unreachable', 'The model server is not running.')),
    });
    const { turnId, assistantMessageId, heard } = await converse(registry, 'Hi?');
    assert.equal((await store.getMessage({ id: assistantMessageId }))?.content, 'Closures keep');
    const error = heard.at(-1);
    assert.deepEqual(error, { type: 'error', code: 'model_unreachable', message: 'The model server is not running.', seq: error?.seq });
    assert.deepEqual(
      [(await store.getMessage({ id: assistantMessageId }))?.status, (await store.getMessage({ id: assistantMessageId }))?.errorCode],
      ['error', 'model_unreachable'],
    );
    assert.equal((await store.getTurn({ id: turnId }))?.status, 'error');
  });

  test('a spent budget says how much fuel went', async () => {
    const { registry } = await setup({
      rounds: [toolCall('lookup', { q: 'x' }), reply('x')],
      engine: { budget: { fuel: 150, modelCalls: 16, modelCallCost: 100 } },
    });
    const { heard } = await converse(registry, 'Look up x.');
    const error = heard.at(-1);
    assert.equal(error?.type, 'error');
    assert.equal(error?.type === 'error' && error.code, 'budget_exhausted');
    assert.equal(error?.type === 'error' && error.fuelUsed, 101);
  });

  test('words set aside before a call are not kept as the answer of a turn that then fails', async () => {
    const { registry, store } = await setup({
      rounds: [{ ...toolCall('lookup', { q: 'x' }), content: 'Let me check.' }],
      engine: { budget: { fuel: 100, modelCalls: 16, modelCallCost: 100 } },
    });
    const { assistantMessageId, heard } = await converse(registry, 'Look up x.');
    assert.ok(types(heard).includes('draft_rejected'));
    assert.equal((await store.getMessage({ id: assistantMessageId }))?.content, '');
  });

  test('stopped while writing: the words written so far are the interrupted answer', async () => {
    let stop = (): unknown => false;
    const { registry, store } = await setup({
      wrapModel: writesThenFails('Closures keep', () => {
        stop();
        return new Error('This operation was aborted');
      }),
    });
    const ids = await registry.start({ threadId: 'th', content: 'Explain closures.' });
    stop = () => registry.cancel(ids.turnId);
    await listen(registry, ids.turnId);
    assert.deepEqual(
      [(await store.getMessage({ id: ids.assistantMessageId }))?.content, (await store.getMessage({ id: ids.assistantMessageId }))?.status],
      ['Closures keep', 'interrupted'],
    );
  });

  test('stopped before it started: cancelled, and the message says it was interrupted', async () => {
    const { registry, store } = await setup({ rounds: [reply('never')] });
    const ids = await registry.start({ threadId: 'th', content: 'Hi?' });
    assert.equal(registry.isLive(ids.turnId), true);
    assert.equal(await registry.cancel(ids.turnId), true);
    const heard = await listen(registry, ids.turnId);
    assert.deepEqual(heard.at(-1), {
      type: 'error',
      code: 'cancelled',
      message: 'Stopped. The partial answer was kept.',
      seq: heard.at(-1)?.seq,
    });
    assert.deepEqual(
      [
        (await store.getMessage({ id: ids.assistantMessageId }))?.status,
        (await store.getMessage({ id: ids.assistantMessageId }))?.errorCode,
      ],
      ['interrupted', 'cancelled'],
    );
    assert.equal((await store.getMessage({ id: ids.assistantMessageId }))?.content, '', 'nothing was written');
    assert.equal((await store.getTurn({ id: ids.turnId }))?.status, 'cancelled');
    assert.equal(await registry.cancel(ids.turnId), false, 'a finished turn cannot be stopped');
    assert.equal(await registry.cancel('missing'), false);
  });

  test('Hearth stopping: the running turn is kept as interrupted at once with the words heard, its late end stores nothing, and it is not resumed', async () => {
    let wrote!: () => void;
    const writing = new Promise<void>((r) => (wrote = r));
    const { registry, store } = await setup({
      wrapModel: (model) => ({
        health: () => model.health(),
        chat: async (req, options) => {
          if (req.jsonSchema) return model.chat(req, options);
          options?.onDelta?.('Closures keep');
          wrote();
          // the model call ends only when it is aborted, as a real stream does
          await new Promise((_, reject) => options?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
          throw new Error('unreachable');
        },
      }),
    });
    const ids = await registry.start({ threadId: 'th', content: 'Explain closures.' });
    const heard = listen(registry, ids.turnId);
    await writing;
    assert.deepEqual(await registry.stopAll(), [ids.turnId]);
    // stored by the time stopAll answers: the process may exit then
    assert.deepEqual(
      [(await store.getMessage({ id: ids.assistantMessageId }))?.content, (await store.getMessage({ id: ids.assistantMessageId }))?.status],
      ['Closures keep', 'interrupted'],
    );
    assert.equal((await store.getTurn({ id: ids.turnId }))?.status, 'interrupted');
    const events = await heard;
    assert.equal(events.at(-1)?.type, 'error');
    assert.match((events.at(-1) as { message: string }).message, /Hearth was stopped/);
    const storedEvents = (await store.eventsAfter({ turnId: ids.turnId, after: 0 })).length;
    await registry.idle();
    assert.equal((await store.getTurn({ id: ids.turnId }))?.status, 'interrupted', 'the late end changed nothing');
    assert.equal((await store.eventsAfter({ turnId: ids.turnId, after: 0 })).length, storedEvents, 'nothing stored after the stop');
    assert.deepEqual(await registry.resumeUnfinished(), { resumed: [], interrupted: [] });
    assert.deepEqual(await registry.stopAll(), [], 'nothing left to stop');
  });

  test('stopping a thread stops its turns', async () => {
    const { registry, store } = await setup({ rounds: [reply('never')] });
    const ids = await registry.start({ threadId: 'th', content: 'Hi?' });
    registry.cancelThread('th');
    await registry.idle();
    assert.equal((await store.getTurn({ id: ids.turnId }))?.status, 'cancelled');
  });

  test('the thread deleted before the turn ran: the turn ends in not_found', async () => {
    const { registry, store, logs } = await setup({ rounds: [reply('never')] });
    const ids = await registry.start({ threadId: 'th', content: 'Hi?' });
    const heard = listen(registry, ids.turnId);
    await store.deleteThread({ id: 'th' });
    const events = await heard;
    const last = events.at(-1);
    assert.deepEqual(last?.type === 'error' && [last.code, last.message], ['not_found', 'The thread was deleted.']);
    assert.ok(
      logs.some((l) => l.startsWith(`turn ${ids.turnId}: could not`)),
      logs.join('\n'),
    );
  });

  test('anything thrown on the way, Error or not, ends the turn as an internal error with its words', async () => {
    for (const [thrown, words] of [
      [new Error('tool set broken'), 'tool set broken'],
      ['a bare string', 'a bare string'],
      [null, 'null'],
    ] as const) {
      const { registry } = await setup({
        rounds: [reply('never')],
        options: {
          tools: () => {
            throw thrown;
          },
        },
      });
      const { heard } = await converse(registry, 'Hi?');
      const last = heard.at(-1);
      assert.deepEqual(last?.type === 'error' && [last.code, last.message], ['internal', words]);
    }
  });
});

describe('what the registry stores as a turn runs', () => {
  /**
   * A model whose words each take `ms` of the test's clock: it moves as each word is streamed. (Listeners
   * hear a turn's events after they are stored, so the clock cannot move as a word is heard: the next
   * word may be out already.)
   */
  const pacedBy =
    (clock: () => { t: number }, ms: number) =>
    (model: ModelClient): ModelClient => ({
      health: () => model.health(),
      chat: (req, options) => {
        const onDelta = options?.onDelta;
        return model.chat(req, onDelta ? { ...options, onDelta: (text) => (onDelta(text), (clock().t += ms)) } : options);
      },
    });

  test('the partial answer is saved at most every 500 ms, so a crash keeps it', async () => {
    const { registry, store, clock } = await setup({
      rounds: [reply('one two three four five')],
      wrapModel: pacedBy(() => clock, 250),
    });
    const ids = await registry.start({ threadId: 'th', content: 'Count.' });
    // What is stored as each word is heard (read then: the store answers at once when no transaction is open).
    const seen: Promise<string>[] = [];
    await listen(registry, ids.turnId, (e) => {
      if (e.type !== 'delta') return;
      seen.push(store.getMessage({ id: ids.assistantMessageId }).then((m) => m?.content ?? ''));
    });
    assert.deepEqual(await Promise.all(seen), ['one', 'one', 'one two three', 'one two three', 'one two three four five']);
  });

  test('the partial answer saved after words were set aside holds only the words after them', async () => {
    const { registry, store, clock } = await setup({
      rounds: [{ ...toolCall('lookup', { q: 'x' }), content: 'Let me check.' }, reply('Found x here.')],
      wrapModel: pacedBy(() => clock, 500),
    });
    const ids = await registry.start({ threadId: 'th', content: 'Look up x.' });
    const seen: Promise<string>[] = [];
    await listen(registry, ids.turnId, (e) => {
      if (e.type !== 'delta') return;
      seen.push(store.getMessage({ id: ids.assistantMessageId }).then((m) => m?.content ?? ''));
    });
    assert.deepEqual(await Promise.all(seen), ['Let', 'Let me', 'Let me check.', 'Found', 'Found x', 'Found x here.']);
  });

  test('a listener that throws is dropped; the others still hear the turn', async () => {
    const { registry } = await setup({ rounds: [reply('Fine.')] });
    const ids = await registry.start({ threadId: 'th', content: 'Hi?' });
    let thrown = 0;
    await registry.subscribe(ids.turnId, 0, {
      event: () => {
        thrown++;
        throw new Error('a closed connection');
      },
      end: () => undefined,
    });
    const heard = await listen(registry, ids.turnId);
    assert.equal(thrown, 1);
    assert.equal(heard.at(-1)?.type, 'done');
  });

  test('a full disk stops the turn with storage_full', async () => {
    let full = false;
    const { registry, logs } = await setup({
      rounds: [reply('one two three')],
      failWrite: {
        method: 'appendEvent',
        when: (args) => (full ||= args.type === 'delta'),
        error: Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
      },
    });
    const ids = await registry.start({ threadId: 'th', content: 'Hi?' });
    const heard = await listen(registry, ids.turnId);
    const error = heard.at(-1);
    assert.equal(error?.type === 'error' && error.code, 'storage_full');
    assert.ok(
      logs.some((l) => l === `turn ${ids.turnId}: could not store a delta event: database or disk is full`),
      logs.join('\n'),
    );
  });

  test('an event that cannot be stored for another reason than a full disk is logged, and the turn goes on to its answer', async () => {
    const { registry, store, logs } = await setup({
      rounds: [reply('one two three')],
      failWrite: { method: 'appendEvent', when: (args) => args.type === 'delta', error: new Error('disk I/O error') },
    });
    const ids = await registry.start({ threadId: 'th', content: 'Hi?' });
    const heard = await listen(registry, ids.turnId);
    assert.equal(heard.at(-1)?.type, 'done');
    assert.equal((await store.getMessage({ id: ids.assistantMessageId }))?.content, 'one two three');
    assert.ok(logs.includes(`turn ${ids.turnId}: could not store a delta event: disk I/O error`), logs.join('\n'));
  });

  test('an end that cannot be stored still reaches the client, as an error', async () => {
    const { registry, logs } = await setup({
      rounds: [reply('Fine.')],
      failWrite: { method: 'setTurnStatus', when: (args) => args.status === 'done', error: new Error('disk I/O error') },
    });
    const ids = await registry.start({ threadId: 'th', content: 'Hi?' });
    const heard = await listen(registry, ids.turnId);
    const error = heard.at(-1);
    assert.equal(error?.type === 'error' && error.code, 'internal');
    assert.equal(error?.type === 'error' && error.message, 'The turn could not be stored as it ended.');
    assert.ok(logs.includes(`turn ${ids.turnId}: could not finish cleanly: disk I/O error`), logs.join('\n'));
    assert.equal(registry.isLive(ids.turnId), false);
    assert.equal(error?.seq, (heard.at(-2)?.seq ?? 0) + 1, 'numbered after the last event heard');
  });

  test('a listener that throws as the turn ends does not make the end fail: the others are told once, the answer is kept', async () => {
    const { registry, store, logs } = await setup({ rounds: [reply('Kept.')] });
    const ids = await registry.start({ threadId: 'th', content: 'Hi?' });
    await registry.subscribe(ids.turnId, 0, {
      event: () => undefined,
      end: () => {
        throw new Error('stream closed');
      },
    });
    const ends: string[] = [];
    const heard = await new Promise<StreamedEvent[]>((resolve, reject) => {
      const got: StreamedEvent[] = [];
      registry.subscribe(ids.turnId, 0, { event: (e) => got.push(e), end: () => (ends.push('end'), resolve(got)) }).catch(reject);
    });
    await registry.idle();
    assert.deepEqual(ends, ['end']);
    assert.equal(heard.at(-1)?.type, 'done');
    assert.equal((await store.getMessage({ id: ids.assistantMessageId }))?.content, 'Kept.');
    assert.equal((await store.getTurn({ id: ids.turnId }))?.status, 'done');
    assert.deepEqual(
      logs.filter((l) => /could not finish/.test(l)),
      [],
    );
  });

  test('a client told a turn ended finds it over when it asks at once, and may ask the next question then', async () => {
    const atEnd = (registry: TurnSupervisor, turnId: string, then: () => void) =>
      new Promise<void>((resolve, reject) => {
        registry.subscribe(turnId, 0, { event: () => undefined, end: () => (then(), resolve()) }).catch(reject);
      });
    const { registry, store } = await setup({ rounds: [reply('One.'), reply('Two.')] });
    const first = await registry.start({ threadId: 'th', content: 'One?' });
    let asked: Promise<{ turnId: string }> | undefined;
    const liveAtEnd: boolean[] = [];
    await atEnd(registry, first.turnId, () => {
      liveAtEnd.push(registry.isLive(first.turnId));
      asked = registry.start({ threadId: 'th', content: 'Two?' });
    });
    assert.deepEqual(liveAtEnd, [false], 'told once, and the turn is over');
    assert.ok(asked, 'the next question was asked');
    // Refused (turn_running) had the thread still looked busy.
    const next = await asked;
    assert.ok(next, 'the next question was taken');
    await registry.idle();
    assert.equal((await store.getMessage({ id: (await store.getTurn({ id: next.turnId }))!.assistantMessageId! }))?.content, 'Two.');

    const failing = await setup({
      rounds: [reply('Fine.')],
      failWrite: { method: 'setTurnStatus', when: (args) => args.status === 'done', error: new Error('disk I/O error') },
    });
    const ids = await failing.registry.start({ threadId: 'th', content: 'Hi?' });
    const liveAtFailedEnd: boolean[] = [];
    await atEnd(failing.registry, ids.turnId, () => liveAtFailedEnd.push(failing.registry.isLive(ids.turnId)));
    assert.deepEqual(liveAtFailedEnd, [false], 'also when the end could not be stored');
  });

  test('a log that cannot be compacted stays whole and is said in the log', async () => {
    const { registry, store, logs } = await setup({
      rounds: [reply('Fine.')],
      failWrite: { method: 'storeCompactLog', when: () => true, error: new Error('no room') },
    });
    const { turnId } = await converse(registry, 'Hi?');
    assert.equal((await store.getTurn({ id: turnId }))?.events, null);
    assert.ok(logs.includes(`turn ${turnId}: could not compact its events: no room`), logs.join('\n'));
    assert.equal((await listen(registry, turnId)).at(-1)?.type, 'done', 'the full log still replays');
  });
});

describe('resuming after a restart', () => {
  /** A turn the server was writing when it stopped: its question, its partial answer, its row. */
  const leftRunning = async (store: Store, thread: string, turn: string, partial: string) => {
    const ex = await seedExchange(
      store,
      { thread, user: `${turn}-u`, assistant: `${turn}-a`, turn },
      { question: 'Explain closures.', answer: partial },
    );
    await store.updateMessage({ id: ex.assistant, status: 'streaming' });
    await store.setTurnStatus({ id: turn, status: 'running' });
    return ex;
  };

  test('a turn left running resumes where it was, and one whose messages are gone is marked interrupted', async () => {
    const store = freshStore();
    const running = await leftRunning(store, 'th', 'running', 'Closures');
    await store.appendEvent({ turnId: 'running', seq: 1, type: 'turn', data: { type: 'turn' }, now: 1 });
    const broken = await leftRunning(store, 'gone', 'broken', 'Half');
    sqliteOf(store).prepare('DELETE FROM messages WHERE id = ?').run(broken.user);
    const { registry } = await setup({ store, rounds: [reply('Closures keep their scope.')] });
    const out = await registry.resumeUnfinished();
    assert.deepEqual(out, { resumed: ['running'], interrupted: ['broken'] });
    assert.equal((await store.getMessage({ id: broken.assistant }))?.status, 'interrupted');
    assert.equal((await store.getTurn({ id: 'broken' }))?.status, 'interrupted');
    const heard = await listen(registry, 'running');
    assert.deepEqual(heard[1], { type: 'status', stage: 'resumed', seq: 2 }, 'numbered after the stored events');
    assert.equal((await store.getMessage({ id: running.assistant }))?.content, 'Closures keep their scope.');
    // Its finished log keeps the resumed mark whole beside references to what the tables hold: replayed, both are heard.
    assert.deepEqual(types(await listen(registry, 'running')), [
      'turn',
      'status',
      'draft',
      'decision',
      'decision',
      'decision',
      'message',
      'done',
    ]);
    assert.deepEqual(await registry.resumeUnfinished(), { resumed: [], interrupted: [] });
  });

  test('a resumed turn stopped before new words keeps the words from before the restart', async () => {
    const store = freshStore();
    const running = await leftRunning(store, 'th', 'running', 'Closures keep');
    const { registry } = await setup({ store, rounds: [reply('never')] });
    await registry.resumeUnfinished();
    void registry.cancel('running');
    await registry.idle();
    assert.deepEqual(
      [(await store.getMessage({ id: running.assistant }))?.content, (await store.getMessage({ id: running.assistant }))?.status],
      ['Closures keep', 'interrupted'],
    );
  });
});

test('a title is the first words of the first message, cut at a word', () => {
  assert.equal(titleFrom('  Plan   a\ttrip\nto Lyon  '), 'Plan a trip to Lyon');
  const sixty = 'a'.repeat(60);
  assert.equal(titleFrom(sixty), sixty, 'sixty characters fit');
  assert.equal(titleFrom(`${'word '.repeat(20)}`), `${'word '.repeat(12).trim()}…`);
  assert.equal(titleFrom(`${'a'.repeat(35)} ${'b'.repeat(40)}`), `${'a'.repeat(35)}…`, 'cut at the last space');
  assert.equal(
    titleFrom(`${'a'.repeat(10)} ${'b'.repeat(60)}`),
    `${'a'.repeat(10)} ${'b'.repeat(19)}…`,
    'a space too early is not used: 30 characters at least',
  );
  assert.equal(titleFrom(`${'a'.repeat(29)} ${'b'.repeat(40)}`), `${'a'.repeat(29)}…`, 'a cut at 30 that ends on a space is trimmed');
});

describe('what the model is sent', () => {
  /** A message chained under `parent` (or first), on turn `turn`. */
  const say = (
    store: Store,
    id: string,
    parent: string | null,
    role: 'user' | 'assistant',
    content: string,
    status: 'complete' | 'error' = 'complete',
    turn = `t-${id}`,
  ) => store.insertMessage({ id, threadId: 'th', turnId: turn, parentId: parent, role, content, status, now: 10 });
  const conversation = (messages: { role: string; content: unknown }[]) =>
    messages.filter((m) => m.role !== 'system').map((m) => [m.role, typeof m.content === 'string' ? m.content : JSON.stringify(m.content)]);

  test('the branch as it was said: every question, answers only when finished and not blank; another branch not at all', async () => {
    const { registry, store, model } = await setup({ rounds: [reply('Four.')] });
    await say(store, 'u1', null, 'user', 'Question one?');
    await say(store, 'a1', 'u1', 'assistant', 'Answer one.', 'complete', 't-u1');
    await say(store, 'u2', 'a1', 'user', 'Question two?');
    await say(store, 'a2', 'u2', 'assistant', 'Half an answer', 'error', 't-u2');
    await say(store, 'u3', 'a2', 'user', 'Question three?');
    await say(store, 'a3', 'u3', 'assistant', '  \n ', 'complete', 't-u3');
    await say(store, 'x1', null, 'user', 'A question on another branch?');
    await say(store, 'x2', 'x1', 'assistant', 'An answer on another branch.', 'complete', 't-x1');
    await store.setCurrentLeaf({ threadId: 'th', leafId: 'a3' });
    await converse(registry, 'Question four?');
    assert.deepEqual(conversation(model.roundRequests[0].messages), [
      ['user', 'Question one?'],
      ['assistant', 'Answer one.'],
      ['user', 'Question two?'],
      ['user', 'Question three?'],
      ['user', 'Question four?'],
    ]);
  });

  test('an earlier question without words (a file alone) is still a question of the branch', async () => {
    const { registry, store, model } = await setup({ rounds: [reply('Four.')] });
    await say(store, 'u1', null, 'user', '');
    await say(store, 'a1', 'u1', 'assistant', 'A photo of a cat.', 'complete', 't-u1');
    await store.setCurrentLeaf({ threadId: 'th', leafId: 'a1' });
    await converse(registry, 'And its colour?');
    assert.deepEqual(conversation(model.roundRequests[0].messages), [
      ['user', ''],
      ['assistant', 'A photo of a cat.'],
      ['user', 'And its colour?'],
    ]);
  });

  test('the gate compares a draft with the last three answers of the branch, oldest first', async () => {
    const { registry, store, model } = await setup({ research: true, rounds: [reply('Five.')] });
    let parent: string | null = null;
    for (const n of [1, 2, 3, 4]) {
      await say(store, `u${n}`, parent, 'user', `Question ${n}?`);
      await say(store, `a${n}`, `u${n}`, 'assistant', `Answer ${n}.`, 'complete', `t-u${n}`);
      parent = `a${n}`;
    }
    await store.setCurrentLeaf({ threadId: 'th', leafId: 'a4' });
    await converse(registry, 'Question five?');
    const verdict = model.decideRequests.find((r) => 'verdict' in ((r.jsonSchema as { properties?: object }).properties ?? {}));
    assert.ok(verdict, 'the verdict was asked');
    assert.match(
      String(verdict.messages.at(-1)?.content),
      /^Question:\nQuestion five\?\n\nAnswers already given earlier in this conversation:\n- Answer 2\.\n- Answer 3\.\n- Answer 4\.\n\n/,
    );
  });

  test('the checks so far come from this branch: another branch’s turns are not this conversation', async () => {
    const { registry, store, model } = await setup({ rounds: [reply('Old.'), reply('New.'), reply('Three.')] });
    const first = await converse(registry, 'First question?');
    const edited = await converse(registry, 'First question, edited?', { editOf: first.userMessageId });
    const record = (stepId: string, turnId: string | null, scope: 'thread' | 'execution' = 'thread') =>
      store.appendDecisions({
        layerId: 'decisionsHistory',
        scope,
        scopeKey: scope === 'thread' ? 'th' : 'elsewhere',
        turnId,
        threadId: 'th',
        maxRecords: 50,
        records: [{ stepId, at: 1, modelId: 'm', source: 'native', answers: { ok: { kind: 'boolean', value: true, p: 0.9 } } }],
      });
    await record('on_this_branch', edited.turnId);
    await record('on_the_old_branch', first.turnId);
    await record('of_no_turn', null);
    await record('of_another_scope', edited.turnId, 'execution');
    await converse(registry, 'Third question?');
    const sent = model.roundRequests[2].messages.map((m) => String(m.content)).join('\n');
    assert.match(sent, /Decisions so far:\n- on_this_branch: ok=yes \(0\.9\)\n- of_no_turn: ok=yes \(0\.9\)/);
    assert.doesNotMatch(sent, /on_the_old_branch|of_another_scope/);
  });

  test('the first facts kept apply to every question, at the end of the system block; the answer names the facts it drew on', async () => {
    const { registry, store, model } = await setup({ rounds: [reply('A chickpea curry suits a vegetarian.'), reply('It is 12 °C.')] });
    await store.insertMemory({ id: 'v', text: 'The user is vegetarian', now: 1 });
    await store.insertMemory({ id: 'c', text: 'The user has two cats', now: 2 });
    const first = await converse(registry, 'Suggest a dinner recipe for me.');
    const system = String(model.roundRequests[0].messages[0].content);
    assert.match(
      system,
      /What you know about the user[^\n]*\n- The user is vegetarian\n- The user has two cats$/,
      'last in the system block',
    );
    assert.equal(
      (await store.getMessage({ id: first.userMessageId }))?.contextBlock,
      null,
      'no per-turn note: nothing to recall beyond them',
    );
    const used = first.heard.filter((e) => e.type === 'memory');
    assert.deepEqual(
      used.map((e) => (e as { facts: string[] }).facts),
      [['The user is vegetarian']],
      'the fact the answer used, not the one it did not',
    );
    assert.ok(types(first.heard).indexOf('memory') < types(first.heard).indexOf('message'), 'said before the answer is final');
    const second = await converse(registry, 'How cold is it?');
    assert.equal(String(model.roundRequests[1].messages[0].content), system, 'the same system block: the cached prefix holds');
    assert.ok(!second.heard.some((e) => e.type === 'memory'), 'an answer that used no fact names none');
  });

  test('a question keeps the context block it was sent with; answered again, it gets a new one', async () => {
    const { registry, store, model } = await setup({
      rounds: [reply('In Lyon.'), reply('Fine.'), reply('Still Lyon.'), reply('Somewhere.')],
    });
    // The first facts kept apply to every question (the system block); the ones after them are recalled by their words.
    for (let i = 0; i < STANDING_COUNT; i++)
      await store.insertMemory({ id: `standing-${i}`, text: `The user owns a plant called P${i}`, now: 0 });
    await store.insertMemory({ id: 'm', text: 'The user lives in Lyon, near the river', now: 1 });
    const first = await converse(registry, 'Where do I live, Lyon?');
    const block = (await store.getMessage({ id: first.userMessageId }))?.contextBlock;
    assert.match(
      block ?? '',
      /^What you remember about the user.*\n- The user lives in Lyon, near the river$/s,
      'stored with the question',
    );
    await store.updateMemory({ id: 'm', text: 'The user lives in Lyon, near the station', now: 2 });
    const second = await converse(registry, 'How are you?');
    assert.equal((await store.getMessage({ id: second.userMessageId }))?.contextBlock, null, 'no block when nothing bears on the question');
    const resent = conversation(model.roundRequests[1].messages)[0][1];
    assert.match(resent, /near the river/, 'word for word as first sent');
    assert.doesNotMatch(resent, /near the station/);

    await registry.regenerate({ threadId: 'th', messageId: first.assistantMessageId });
    await registry.idle();
    const again = conversation(model.roundRequests[2].messages);
    assert.equal(again.length, 1, 'only the question of that branch');
    assert.match(again[0][1], /near the station/);
    assert.doesNotMatch(again[0][1], /near the river/, 'its old block is not sent beside the new one');
    assert.match((await store.getMessage({ id: first.userMessageId }))?.contextBlock ?? '', /near the station/, 'the new block is kept');

    await store.deleteMemory({ id: 'm' });
    await registry.regenerate({ threadId: 'th', messageId: first.assistantMessageId });
    await registry.idle();
    assert.equal(
      (await store.getMessage({ id: first.userMessageId }))?.contextBlock,
      null,
      'answered again with nothing bearing on it: no block, as it was sent',
    );
  });

  test('images: shown to a server that sees images, named as unseen to one that does not; other files as text', async () => {
    for (const vision of [true, false]) {
      const asked: { sha256: string; mime: string }[] = [];
      const { registry, store, model, pool } = await setup({
        rounds: [reply('A cat.')],
        options: { imageData: (f) => (asked.push(f), `data:${f.mime};base64,AAAA`) },
      });
      model.health = async () => ({ url: 'scripted', reachable: true, id: 'scripted', vision });
      await pool.refresh();
      await store.insertAttachment({
        id: 'img',
        name: 'cat.png',
        mime: 'image/png',
        size: 10,
        sha256: 'cafe',
        text: '',
        kind: 'image',
        width: 640,
        height: 480,
        now: 1,
      });
      await store.insertAttachment({ id: 'txt', name: 'notes.txt', mime: 'text/plain', size: 5, sha256: 'beef', text: 'hello', now: 1 });
      await converse(registry, 'What is this?', { attachmentIds: ['img', 'txt'] });
      const content = model.roundRequests[0].messages.at(-1)?.content;
      const text = typeof content === 'string' ? content : JSON.stringify(content);
      assert.match(text, /notes\.txt/, 'the text file is there');
      assert.match(text, /hello/);
      assert.doesNotMatch(text, /notes\.txt \(an image/, 'a text file is not an image');
      if (vision) {
        assert.deepEqual(asked, [{ sha256: 'cafe', mime: 'image/png' }]);
        assert.ok(Array.isArray(content), 'text and image parts');
        assert.deepEqual(content.at(-1), { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } });
      } else {
        assert.deepEqual(asked, [], 'no image read for a server that cannot see it');
        assert.match(text, /cat\.png \(an image, 640×480 pixels\): attached here, but you cannot see it/);
      }
    }
  });
});

describe('what the registry tells others as a turn ends', () => {
  test('the titler hears of each turn, and whether it answered', async () => {
    const heard: [string, boolean][] = [];
    const titles = {
      afterTurn: (threadId: string, answered: boolean) => heard.push([threadId, answered]),
      idle: async () => undefined,
    } as unknown as RegistryOptions['titles'];
    const { registry } = await setup({ rounds: [reply('Yes.'), new HearthError('model_unreachable', 'down')], options: { titles } });
    await converse(registry, 'One?');
    await converse(registry, 'Two?');
    assert.deepEqual(heard, [
      ['th', true],
      ['th', false],
    ]);
  });

  test('a check that could not run is said in the log with its layer and hook', async () => {
    const { registry, logs } = await setup({
      rounds: [reply('Fine.')],
      failWrite: { method: 'decisionRowsOfThread', when: () => true, error: new Error('disk I/O error') },
    });
    const { turnId } = await converse(registry, 'How are you?');
    assert.ok(
      logs.some((l) => l.startsWith(`turn ${turnId}: decisionsHistory.`) && l.includes('disk I/O error')),
      logs.join('\n'),
    );
  });
});

test('a new answer starts empty and streaming, whether asked or regenerated', async () => {
  const { registry, store } = await setup({ rounds: [reply('One.'), reply('Two.')] });
  const asked = await registry.start({ threadId: 'th', content: 'Question?' });
  assert.deepEqual(
    [
      (await store.getMessage({ id: asked.assistantMessageId }))?.content,
      (await store.getMessage({ id: asked.assistantMessageId }))?.status,
    ],
    ['', 'streaming'],
  );
  await registry.idle();
  const again = await registry.regenerate({ threadId: 'th', messageId: asked.assistantMessageId });
  assert.deepEqual(
    [
      (await store.getMessage({ id: again.assistantMessageId }))?.content,
      (await store.getMessage({ id: again.assistantMessageId }))?.status,
    ],
    ['', 'streaming'],
  );
  await registry.idle();
});

/** A registry whose model calls wait until the test lets them go. */
async function held(rounds: ScriptedReply[], extra: Setup = {}) {
  let release = () => undefined as void;
  let gate = new Promise<void>((r) => (release = r));
  let calls = 0;
  const s = await setup({
    ...extra,
    rounds,
    wrapModel: (model) => ({
      health: () => model.health(),
      chat: async (req, opts) => {
        calls++;
        await gate;
        return model.chat(req, opts);
      },
    }),
  });
  const waitForCall = async (n: number) => {
    for (let i = 0; i < 100 && calls < n; i++) await new Promise((r) => setImmediate(r));
    assert.ok(calls >= n, `model call ${n} reached`);
  };
  return {
    ...s,
    waitForCall,
    /** Lets the calls waiting now through; later ones wait for the next release. */
    go: () => {
      const open = release;
      gate = new Promise<void>((r) => (release = r));
      open();
    },
    goAll: () => {
      gate = Promise.resolve();
      release();
    },
  };
}

test('a turn waiting for the model hears its place in the queue; stopped while waiting, it ends at once and leaves the queue', async () => {
  const { registry, store, pool, goAll } = await held([reply('First.'), reply('Third.')]);
  await store.createThread({ id: 'th2', title: '', now: 0 });
  await store.createThread({ id: 'th3', title: '', now: 0 });
  const first = await registry.start({ threadId: 'th', content: 'One?' });
  const firstDone = listen(registry, first.turnId);
  const second = await registry.start({ threadId: 'th2', content: 'Two?' });
  const heard: StreamedEvent[] = [];
  const secondDone = listen(registry, second.turnId, (e) => heard.push(e));
  for (let i = 0; i < 20 && !heard.some((e) => e.type === 'status'); i++) await new Promise((r) => setImmediate(r));
  assert.deepEqual(
    heard.find((e) => e.type === 'status'),
    { type: 'status', stage: 'queued', queuePosition: 1, seq: 2 },
  );
  assert.deepEqual(pool.stats.waiting, 1);
  void registry.cancel(second.turnId);
  // Without waiting for the first turn (still held): a stopped turn leaves the queue at once.
  for (let i = 0; i < 50 && registry.isLive(second.turnId); i++) await new Promise((r) => setImmediate(r));
  assert.equal(registry.isLive(second.turnId), false, 'ended while the first turn still holds the model');
  const ended = await secondDone;
  assert.deepEqual(ended.at(-1), { type: 'error', code: 'cancelled', message: 'Stopped. The partial answer was kept.', seq: ended.length });
  assert.equal(pool.stats.waiting, 0);
  goAll();
  await firstDone;
  const third = await converse(registry, 'Three?', { threadId: 'th3' });
  assert.ok(!third.heard.some((e) => e.type === 'status' && e.stage === 'queued'), 'nobody ahead of it');
  assert.equal((await store.getMessage({ id: third.assistantMessageId }))?.content, 'Third.');
});

describe('while a turn holds the model', () => {
  test('stopping a thread stops only that thread’s turns', async () => {
    const h = await held([reply('Other.'), reply('never')]);
    await h.store.createThread({ id: 'th2', title: '', now: 0 });
    const other = await h.registry.start({ threadId: 'th2', content: 'Other?' });
    await h.waitForCall(1);
    h.registry.cancelThread('th');
    assert.equal(h.registry.isLive(other.turnId), true, 'another thread’s turn runs on');
    h.goAll();
    await h.registry.idle();
    assert.equal((await h.store.getTurn({ id: other.turnId }))?.status, 'done');
  });

  test('a turn that is running is not resumed again', async () => {
    const h = await held([reply('Once.')]);
    const ids = await h.registry.start({ threadId: 'th', content: 'Hi?' });
    await h.waitForCall(1);
    assert.equal((await h.store.getTurn({ id: ids.turnId }))?.status, 'running');
    assert.deepEqual(await h.registry.resumeUnfinished(), { resumed: [], interrupted: [] });
    h.goAll();
    await h.registry.idle();
    assert.equal((await h.store.getMessage({ id: ids.assistantMessageId }))?.content, 'Once.');
  });

  test('its steps are kept as it goes (a restart resumes from them), and go once it is compacted', async () => {
    const h = await held([toolCall('lookup', { q: 'x' }, 'c1'), reply('Found.')]);
    const ids = await h.registry.start({ threadId: 'th', content: 'Look up x.' });
    await h.waitForCall(1);
    h.go();
    await h.waitForCall(2);
    assert.deepEqual(
      (await h.store.stepsOf({ turnId: ids.turnId })).map((s) => s.kind),
      ['model', 'tool'],
      'the first round and its tool run, kept before the second round',
    );
    h.goAll();
    await h.registry.idle();
    assert.deepEqual(await h.store.stepsOf({ turnId: ids.turnId }), []);
  });

  test('a client that unsubscribes hears nothing more', async () => {
    const h = await held([reply('Words.')]);
    const ids = await h.registry.start({ threadId: 'th', content: 'Hi?' });
    const heard: string[] = [];
    const sub = await h.registry.subscribe(ids.turnId, 0, { event: (e) => heard.push(e.type), end: () => heard.push('end') });
    await h.waitForCall(1);
    const before = heard.length;
    sub.unsubscribe();
    h.goAll();
    await h.registry.idle();
    assert.equal(heard.length, before);
  });
});

test('each turn’s checks are kept under it, and its replay shows its own (two turns, checks at the same moment)', async () => {
  let n = 0;
  const { registry, store, model } = await setup({ research: true, rounds: [reply('First.'), reply('Second.')] });
  const decide = model.chat.bind(model);
  model.chat = async (req, opts) => {
    if (!req.jsonSchema || !('verdict' in ((req.jsonSchema as { properties?: object }).properties ?? {}))) return decide(req, opts);
    n++;
    return { ...(await decide(req, opts)), content: JSON.stringify({ verdict: 'answered', query: `check ${n}` }) };
  };
  const first = await converse(registry, 'One?');
  const second = await converse(registry, 'Two?');
  const rows = await store.decisionRowsOfThread({ threadId: 'th', layerId: 'decisionsHistory' });
  assert.deepEqual(
    rows.map((r) => [r.stepId, r.turnId]),
    [
      ['deferral_classifier', first.turnId],
      ['freshness', first.turnId],
      ['verdict', first.turnId],
      ['acceptance', first.turnId],
      ['deferral_classifier', second.turnId],
      ['freshness', second.turnId],
      ['verdict', second.turnId],
      ['acceptance', second.turnId],
    ],
  );
  const checks = (events: StreamedEvent[]) =>
    events.filter((e) => e.type === 'decision').map((e) => (e.type === 'decision' ? e.record.answers.query : null));
  const replay = await listen(registry, second.turnId);
  assert.deepEqual(checks(replay), checks(second.heard));
  // The verdict's query, just before the acceptance record (which has none).
  assert.deepEqual(checks(replay).at(-2), { kind: 'text', value: 'check 2' });
});

test('a thread is busy while its turn tells listeners it ended, and while a turn of it is stored as running with none live', async () => {
  const { registry, store } = await setup({ rounds: [reply('Done.')] });
  const ids = await registry.start({ threadId: 'th', content: 'Hi' });
  // Asked as the listener hears done (the answers come later, the questions are put then).
  const atDone: Promise<[busy: boolean, stored: boolean]>[] = [];
  await listen(registry, ids.turnId, (e) => {
    if (e.type === 'done')
      atDone.push(Promise.all([registry.busy('th'), store.activeTurnOf({ threadId: 'th' }).then((t) => t !== undefined)]));
  });
  assert.deepEqual(await Promise.all(atDone), [[true, false]], 'told done, the turn is stored as over but has not finished');
  assert.equal(await registry.busy('th'), false);
  // A turn row left running (the process stopped mid-turn) before it is resumed.
  await store.insertTurn({
    id: 'left-running',
    threadId: 'th',
    userMessageId: ids.userMessageId,
    assistantMessageId: ids.assistantMessageId,
    now: 0,
  });
  assert.equal(await registry.busy('th'), true);
  await assert.rejects(() => registry.start({ threadId: 'th', content: 'Again' }), {
    code: 'turn_running',
    message: 'A reply is still being written in this thread. Wait for it or stop it first.',
  });
  await assert.rejects(() => registry.start({ threadId: 'nope', content: 'Hi' }), {
    code: 'not_found',
    message: 'There is no thread with that id.',
  });
});

test('a finished turn’s log keeps its checks as references to their stored records, each to its own', async () => {
  let stored: { events: { type: string; data: unknown }[] } | undefined;
  const { registry, store } = await setup({
    research: true,
    rounds: [reply('Paris.')],
    // A spy, not a failure: the compacted log as it is written.
    failWrite: { method: 'storeCompactLog', when: (args) => ((stored = args as typeof stored), false), error: new Error('unused') },
  });
  const { turnId } = await converse(registry, 'Capital of France?');
  const rows = (await store.decisionRowsOfThread({ threadId: 'th', layerId: 'decisionsHistory' })).filter((r) => r.turnId === turnId);
  assert.deepEqual(
    rows.map((r) => r.stepId),
    ['deferral_classifier', 'freshness', 'verdict', 'acceptance'],
  );
  const refs = (stored?.events ?? []).filter((e) => e.type === 'decision').map((e) => e.data);
  assert.deepEqual(
    refs,
    rows.map((r) => ({ decision: r.id })),
  );
});

test('a turn that checks twice with the same step keeps a reference to each check’s own record', async () => {
  let stored: { events: { type: string; data: unknown }[] } | undefined;
  let verdicts = 0;
  const { registry, store, model, clock } = await setup({
    research: true,
    rounds: [reply('Paris, I think.'), toolCall('lookup', { q: 'capital of France' }), reply('Paris.')],
    // A spy, not a failure: the compacted log as it is written.
    failWrite: { method: 'storeCompactLog', when: (args) => ((stored = args as typeof stored), false), error: new Error('unused') },
  });
  const chat = model.chat.bind(model);
  model.chat = async (req, opts) => {
    if (!req.jsonSchema || !('verdict' in ((req.jsonSchema as { properties?: object }).properties ?? {}))) return chat(req, opts);
    clock.t += 1000;
    verdicts++;
    return {
      ...(await chat(req, opts)),
      content: JSON.stringify({ verdict: verdicts === 1 ? 'research' : 'answered', query: 'capital of France' }),
    };
  };
  const { turnId } = await converse(registry, 'Capital of France?');
  const rows = (await store.decisionRowsOfThread({ threadId: 'th', layerId: 'decisionsHistory' })).filter((r) => r.turnId === turnId);
  assert.deepEqual(
    rows.map((r) => r.stepId),
    ['deferral_classifier', 'freshness', 'verdict', 'deferral_classifier', 'verdict', 'acceptance'],
  );
  const refs = (stored?.events ?? []).filter((e) => e.type === 'decision').map((e) => e.data);
  assert.deepEqual(
    refs,
    rows.map((r) => ({ decision: r.id })),
  );
});
