import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatRequest, ModelClient } from '@/lib/models/types';
import { BackgroundTitles, cleanTitle, isTitleRequest, type TitleStore } from './titles';

test('a reply becomes a title only when it is one: cleaned of quotes, labels and markdown, at most six words', () => {
  assert.equal(cleanTitle('"Loire Valley Castle Comparison"'), 'Loire Valley Castle Comparison');
  assert.equal(cleanTitle('Title: Heat pumps in winter.'), 'Heat pumps in winter');
  assert.equal(cleanTitle('**Title:** Sourdough starter troubleshooting'), 'Sourdough starter troubleshooting');
  assert.equal(cleanTitle('# Budget travel in Japan\n\nSome more text'), 'Budget travel in Japan');
  assert.equal(cleanTitle('<think>the user asks about tides</think>\nHow tides work'), 'How tides work');
  assert.equal(cleanTitle('Planning a two week trip across southern Italy by train'), 'Planning a two week trip across');
  assert.equal(cleanTitle('Photosynthesis'), 'Photosynthesis', 'one long word is a title');
  assert.equal(cleanTitle('Hi'), null);
  assert.equal(cleanTitle(''), null);
  assert.equal(cleanTitle("I'm sorry, but I can't write a title for this conversation."), null);
  assert.equal(cleanTitle('This conversation is about the user asking many things about their garden and their plants and more'), null);
  assert.equal(cleanTitle('Tax\u0007 return \u202equestions today'), 'Tax return questions today', 'control characters go');
});

/** A thread store in memory, as the titler sees it. */
function memoryStore(): TitleStore & {
  threads: Map<
    string,
    {
      title: string;
      titleSource: 'auto' | 'model' | 'user';
      messages: { id: string; parentId: string | null; role: 'user' | 'assistant'; content: string; status: string }[];
    }
  >;
} {
  const threads = new Map();
  return {
    threads,
    getThread: ({ id }) => threads.get(id),
    listMessages: ({ threadId }) => threads.get(threadId)?.messages ?? [],
    setModelTitle: ({ id, title }) => {
      const t = threads.get(id);
      if (!t || t.titleSource !== 'auto') return false;
      Object.assign(t, { title, titleSource: 'model' });
      return true;
    },
  };
}

function thread(store: ReturnType<typeof memoryStore>, id: string, exchanges: number, titleSource: 'auto' | 'user' = 'auto') {
  const messages = Array.from({ length: exchanges }, (_, i) => [
    {
      id: `u${i}`,
      parentId: i === 0 ? null : `a${i - 1}`,
      role: 'user' as const,
      content: `Question ${i + 1} about sourdough bread`,
      status: 'complete',
    },
    { id: `a${i}`, parentId: `u${i}`, role: 'assistant' as const, content: `Answer ${i + 1}`, status: 'complete' },
  ]).flat();
  store.threads.set(id, { title: 'Question 1 about sourdough bread', titleSource, messages });
}

/** A pool with a model whose answers the test releases, and a switch for "a turn is running". */
function pool() {
  const calls: { request: ChatRequest; signal: AbortSignal; answer: (text: string) => void; fail: (err: Error) => void }[] = [];
  let busy = false;
  const controllers = new Set<AbortController>();
  const model: ModelClient = {
    health: async () => ({ url: 'x', reachable: true }),
    chat: (request, options = {}) =>
      new Promise((resolve, reject) => {
        const signal = options.signal!;
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        calls.push({
          request,
          signal,
          answer: (content) =>
            resolve({
              content,
              reasoning: '',
              toolCalls: [],
              finishReason: 'stop',
              usage: { promptTokens: 1, completionTokens: 1 },
              tokenProbs: null,
              model: 'x',
            }),
          fail: reject,
        });
      }),
  };
  return {
    calls,
    set busy(b: boolean) {
      busy = b;
      // A turn arriving stops background work, as ModelPool.enter does.
      if (b) for (const c of controllers) c.abort();
    },
    idle() {
      if (busy) return null;
      const stop = new AbortController();
      controllers.add(stop);
      return { model, signal: stop.signal, release: () => controllers.delete(stop) };
    },
  };
}

const settle = () => new Promise((r) => setImmediate(r));
/** Turns of the event loop until the model has been asked `n` times (the titler reads the store first), or a few dozen pass. */
async function asked(models: { calls: unknown[] }, n: number) {
  for (let i = 0; i < 50 && models.calls.length < n; i++) await settle();
}

test('after the first exchange the model titles the thread in the background, and the page hears of it', async () => {
  const store = memoryStore();
  const models = pool();
  const heard: [string, string][] = [];
  const titles = new BackgroundTitles({ store, models, onTitle: (id, title) => heard.push([id, title]) });
  thread(store, 'a', 1);
  await titles.afterTurn('a', true);
  await asked(models, 1);
  assert.equal(models.calls.length, 1);
  assert.ok(isTitleRequest(models.calls[0].request));
  assert.equal(models.calls[0].request.lane, 'side');
  assert.match(String(models.calls[0].request.messages[1].content), /User: Question 1 about sourdough bread\nAssistant: Answer 1/);
  models.calls[0].answer('Sourdough Bread Basics');
  await titles.idle();
  assert.equal(store.threads.get('a')!.title, 'Sourdough Bread Basics');
  assert.deepEqual(heard, [['a', 'Sourdough Bread Basics']]);
  // Later exchanges, a failed turn, or a thread the user named: no call.
  thread(store, 'b', 2);
  await titles.afterTurn('b', true);
  thread(store, 'c', 1, 'user');
  await titles.afterTurn('c', true);
  thread(store, 'd', 1);
  await titles.afterTurn('d', false);
  await titles.idle();
  assert.equal(models.calls.length, 1);
});

test('a turn that arrives stops the title call at once; the title is written after that turn', async () => {
  const store = memoryStore();
  const models = pool();
  const titles = new BackgroundTitles({ store, models });
  thread(store, 'a', 1);
  await titles.afterTurn('a', true);
  await asked(models, 1);
  assert.equal(models.calls.length, 1);
  models.busy = true; // the user sent the next message
  assert.equal(models.calls[0].signal.aborted, true, 'the title call was stopped for the turn');
  await titles.idle();
  assert.equal(store.threads.get('a')!.titleSource, 'auto');
  // That turn ends (the thread now has two exchanges): the pending title is written from the first.
  thread(store, 'a', 2);
  models.busy = false;
  await titles.afterTurn('a', true);
  await asked(models, 2);
  assert.equal(models.calls.length, 2);
  assert.match(String(models.calls[1].request.messages[1].content), /Question 1 about/);
  models.calls[1].answer('Sourdough questions');
  await titles.idle();
  assert.equal(store.threads.get('a')!.title, 'Sourdough questions');
});

test('a title the user typed while the model was writing one is kept', async () => {
  const store = memoryStore();
  const models = pool();
  const titles = new BackgroundTitles({ store, models });
  thread(store, 'a', 1);
  await titles.afterTurn('a', true);
  await asked(models, 1);
  Object.assign(store.threads.get('a')!, { title: 'My bread notes', titleSource: 'user' });
  models.calls[0].answer('Sourdough Bread Basics');
  await titles.idle();
  assert.equal(store.threads.get('a')!.title, 'My bread notes');
});

test('a server that fails is asked once more, then the thread keeps its first words', async () => {
  const store = memoryStore();
  const models = pool();
  const logs: string[] = [];
  const titles = new BackgroundTitles({ store, models, log: (m) => logs.push(m) });
  thread(store, 'a', 1);
  await titles.afterTurn('a', true);
  await asked(models, 1);
  models.calls[0].fail(new Error('connection refused'));
  await asked(models, 2);
  assert.equal(models.calls.length, 2, 'tried again');
  models.calls[1].fail(new Error('connection refused'));
  await titles.idle();
  assert.equal(models.calls.length, 2);
  assert.equal(store.threads.get('a')!.title, 'Question 1 about sourdough bread');
  assert.match(logs.join('\n'), /no title from the model: connection refused/);
});
