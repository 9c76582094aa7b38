import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatRequest, ChatResult, ModelClient } from '@/lib/models/types';
import { BackgroundTitles, cleanTitle, isTitleRequest, titleRequestMessages, writeTitle, type TitleStore } from './titles';

/** The title call's words and settings, every cleaning rule at its edge, and which exchange is titled. */

test('the title call: its system line, the exchange with whitespace folded, cut at 1200 and 800 characters', () => {
  const [system, user] = titleRequestMessages('  How do   tides\nwork? ', 'Mostly the moon.');
  assert.deepEqual(system, { role: 'system', content: 'You write short titles for conversations.' });
  assert.equal(
    user.content,
    'Conversation:\nUser: How do tides work?\nAssistant: Mostly the moon.\n\n' +
      'Write a title of 3 to 6 words for this conversation, naming its subject the way a person would file it. ' +
      'Reply with the title only: no quotes, no "Title:", no full stop.',
  );
  const long = (n: number) => 'x'.repeat(n);
  const cut = String(titleRequestMessages(long(1201), long(801))[1].content);
  assert.ok(cut.includes(`User: ${long(1200)}…\n`), 'a question over 1200 characters is cut there');
  assert.ok(cut.includes(`Assistant: ${long(800)}…\n`), 'an answer over 800 characters is cut there');
  const whole = String(titleRequestMessages(long(1200), long(800))[1].content);
  assert.ok(whole.includes(`User: ${long(1200)}\n`) && whole.includes(`Assistant: ${long(800)}\n`), 'at the limit: whole, no ellipsis');
});

test('a title request is told by its first message: the title system line, as a system message', () => {
  assert.equal(isTitleRequest({ messages: titleRequestMessages('q', 'a') }), true);
  assert.equal(isTitleRequest({ messages: [{ role: 'user', content: 'You write short titles for conversations.' }] }), false);
  assert.equal(isTitleRequest({ messages: [{ role: 'system', content: 'You are Hearth.' }] }), false);
  assert.equal(isTitleRequest({ messages: [] }), false);
});

test('the call is short, on the side lane, a little warm, with thinking off', async () => {
  const requests: ChatRequest[] = [];
  const model: ModelClient = {
    health: async () => ({ url: 'x', reachable: true }),
    chat: async (request): Promise<ChatResult> => {
      requests.push(request);
      return {
        content: 'How tides work',
        reasoning: '',
        toolCalls: [],
        finishReason: 'stop',
        usage: { promptTokens: 1, completionTokens: 1 },
        tokenProbs: null,
        model: 'x',
      };
    },
  };
  assert.equal(await writeTitle(model, { question: 'q', answer: 'a' }, new AbortController().signal), 'How tides work');
  const { messages: _messages, ...settings } = requests[0];
  assert.deepEqual(settings, {
    lane: 'side',
    maxTokens: 24,
    temperature: 0.3,
    extra: { chat_template_kwargs: { enable_thinking: false } },
  });
});

test('cleaning: each rule where it starts and stops', () => {
  const cases: [string, string | null, string][] = [
    ['## Budget travel in Japan', 'Budget travel in Japan', 'several hashes'],
    ['  \n   ## Budget travel in Japan  ', 'Budget travel in Japan', 'the first line with words, its spaces left out'],
    ['#Budget travel in Japan', 'Budget travel in Japan', 'a hash without a space'],
    ['C# generics explained simply', 'C# generics explained simply', 'a hash inside stays'],
    ['Title Heat pumps in winter', 'Heat pumps in winter', 'a label without a colon'],
    ['Title:Heat pumps in winter', 'Heat pumps in winter', 'a label without a space'],
    ['**  title  :  ** Heat pumps in winter', 'Heat pumps in winter', 'a bold label with spaces'],
    ['Titleist golf clubs reviewed', 'Titleist golf clubs reviewed', 'a word that starts with title is no label'],
    ['Choosing a title for my novel', 'Choosing a title for my novel', 'the word title inside stays'],
    ['Using `git rebase` safely', 'Using git rebase safely', 'backticks go'],
    ['_Italic_ words in here', 'Italic words in here', 'underscores go'],
    ['««Quoted title in here»»', 'Quoted title in here', 'several quotes at each end'],
    ["Tom's garden shed plans", "Tom's garden shed plans", 'a quote inside stays'],
    ['Node.js memory leaks explained.', 'Node.js memory leaks explained', 'a full stop inside stays'],
    ['Wow such a title!!!', 'Wow such a title', 'several stops at the end'],
    ['Heat \u200b pumps in winter', 'Heat pumps in winter', 'a format character leaves no double space'],
    ['Tea or milk', 'Tea or milk', 'three short words are a title'],
    ['Heat      pumps', null, 'two words under 12 characters, however spaced, are not'],
    ['Cryptography', 'Cryptography', 'one word of 12 characters is'],
    ['Cryptograph', null, 'one of 11 is not'],
    ['Mitochondri \u200b', null, 'nor one of 11 with a format character after it'],
    ['Why I quit coffee for tea', 'Why I quit coffee for tea', 'an I inside is no refusal'],
    ['Sorry state of public transit', null, 'a reply opening like a refusal is taken as one'],
    ['As an AI I cannot do that', null, 'nor can an AI’s'],
    ['one two three four five six seven eight nine ten', 'one two three four five six', 'ten words: the first six'],
    ['one two three four five six seven eight nine ten eleven', null, 'eleven words are a sentence'],
  ];
  for (const [reply, expected, why] of cases) assert.equal(cleanTitle(reply), expected, why);
  const word = (n: number) => 'w'.repeat(n);
  const eighty = `${word(39)} ${word(40)}`;
  assert.equal(cleanTitle(eighty), eighty, '80 characters fit');
  assert.equal(cleanTitle(`${word(40)} ${word(40)}`), `${word(40)} ${word(39)}`, 'longer: cut at 80');
  assert.equal(cleanTitle(`${word(79)} ${word(10)}`), word(79), 'and the cut trimmed');
});

/** The titler's store over a list of messages; a pool whose model answers at once. */
function titler(
  /** A thread said in order, each message under the one before unless it names its parent. */
  said: { id?: string; parentId?: string | null; role: 'user' | 'assistant'; content: string; status: string }[],
  opts: {
    titleSource?: 'auto' | 'user';
    reply?: string;
    getThread?: TitleStore['getThread'];
    lane?: () => AbortSignal | null;
    onTitle?: (threadId: string) => void;
    /** Runs as each title is asked for; what it throws is the model's failure. */
    onAsk?: () => void;
  } = {},
) {
  const asked: string[] = [];
  const titles: string[] = [];
  const logs: string[] = [];
  const messages = said.map((m, i) => ({ id: `m${i}`, parentId: i === 0 ? null : `m${i - 1}`, ...m }));
  const store: TitleStore = {
    getThread: opts.getThread ?? (() => ({ titleSource: opts.titleSource ?? 'auto' })),
    listMessages: () => messages,
    setModelTitle: ({ title }) => (titles.push(title), true),
  };
  const model: ModelClient = {
    health: async () => ({ url: 'x', reachable: true }),
    chat: async (request): Promise<ChatResult> => {
      asked.push(String(request.messages[1].content));
      opts.onAsk?.();
      return {
        content: opts.reply ?? 'Sourdough starter basics',
        reasoning: '',
        toolCalls: [],
        finishReason: 'stop',
        usage: { promptTokens: 1, completionTokens: 1 },
        tokenProbs: null,
        model: 'x',
      };
    },
  };
  const idle = () => {
    const signal = opts.lane ? opts.lane() : new AbortController().signal;
    return signal ? { model, signal, release: () => undefined } : null;
  };
  const bg = new BackgroundTitles({ store, models: { idle }, log: (m) => logs.push(m), onTitle: opts.onTitle });
  return { bg, asked, titles, logs };
}

test('the first exchange is the one titled: its answer (finished, not blank) and that turn’s question', async () => {
  const { bg, asked, titles } = titler([
    { role: 'user', content: 'A question that failed', status: 'complete' },
    { role: 'assistant', content: 'Half', status: 'error' },
    { role: 'user', content: 'A question answered blank', status: 'complete' },
    { role: 'assistant', content: '   ', status: 'complete' },
    { role: 'user', content: 'How do I feed a starter?', status: 'complete' },
    { role: 'assistant', content: 'Twice a day.', status: 'complete' },
  ]);
  await bg.afterTurn('th', true);
  await bg.idle();
  assert.deepEqual(
    asked.map((a) => a.split('\n\n')[0]),
    ['Conversation:\nUser: How do I feed a starter?\nAssistant: Twice a day.'],
  );
  assert.deepEqual(titles, ['Sourdough starter basics']);
});

test('a first answer given again (its turn is not its question’s) is titled from its question, not from another branch', async () => {
  const { bg, asked, titles } = titler([
    { id: 'q0', parentId: null, role: 'user', content: 'A question on a branch left behind', status: 'complete' },
    { id: 'q1', parentId: null, role: 'user', content: 'How do I feed a starter?', status: 'complete' },
    { id: 'a1', parentId: 'q1', role: 'assistant', content: 'Half', status: 'error' },
    { id: 'a2', parentId: 'q1', role: 'assistant', content: 'Twice a day.', status: 'complete' },
  ]);
  await bg.afterTurn('th', true);
  await bg.idle();
  assert.deepEqual(
    asked.map((a) => a.split('\n\n')[0]),
    ['Conversation:\nUser: How do I feed a starter?\nAssistant: Twice a day.'],
  );
  assert.deepEqual(titles, ['Sourdough starter basics']);
});

test('a title call stopped by a turn is no failure: stopped twice, the thread is still titled and nothing is logged', async () => {
  let lane = new AbortController();
  let stops = 2;
  const { bg, titles, logs } = titler(
    [
      { role: 'user', content: 'Q', status: 'complete' },
      { role: 'assistant', content: 'A', status: 'complete' },
    ],
    {
      lane: () => (lane = new AbortController()).signal,
      onAsk: () => {
        if (stops-- <= 0) return;
        lane.abort();
        throw new Error('This operation was aborted');
      },
    },
  );
  for (let turn = 0; turn < 3; turn++) {
    await bg.afterTurn('th', true);
    await bg.idle();
  }
  assert.deepEqual([titles, logs], [['Sourdough starter basics'], []]);
});

test('a model that fails with something other than an Error: after two attempts the log says what it threw', async () => {
  const { bg, asked, logs } = titler(
    [
      { role: 'user', content: 'Q', status: 'complete' },
      { role: 'assistant', content: 'A', status: 'complete' },
    ],
    {
      onAsk: () => {
        throw null;
      },
    },
  );
  await bg.afterTurn('th', true);
  await bg.idle();
  assert.deepEqual([asked.length, logs], [2, ['thread th: no title from the model: null']]);
});

test('no title is asked for a thread with two answers, none, a title of its own, or a turn that failed', async () => {
  const answered = (content: string) => [
    { role: 'user' as const, content: 'Q', status: 'complete' },
    { role: 'assistant' as const, content, status: 'complete' },
  ];
  for (const [messages, opts, completed, why] of [
    [[...answered('One.'), ...answered('Two.')], {}, true, 'two answers'],
    [[{ role: 'user' as const, content: 'Q', status: 'complete' }], {}, true, 'no answer'],
    [answered('One.'), { titleSource: 'user' as const }, true, 'named by the user'],
    [answered('One.'), {}, false, 'the turn failed'],
  ] as const) {
    const { bg, asked } = titler([...messages], opts);
    await bg.afterTurn('th', completed);
    await bg.idle();
    assert.deepEqual(asked, [], why);
  }
  const { bg, asked } = titler([
    ...answered('One.'),
    { role: 'assistant', content: '', status: 'complete' },
    { role: 'assistant', content: 'x', status: 'error' },
  ]);
  await bg.afterTurn('th', true);
  await bg.idle();
  assert.equal(asked.length, 1, 'blank and failed answers are not answers');
});

test('a reply that is no title sets none; a titler that breaks says so in the log', async () => {
  const none = titler(
    [
      { role: 'user', content: 'Q', status: 'complete' },
      { role: 'assistant', content: 'A', status: 'complete' },
    ],
    { reply: "I'm sorry, I can't." },
  );
  await none.bg.afterTurn('th', true);
  await none.bg.idle();
  assert.deepEqual([none.asked.length, none.titles], [1, []]);

  // What breaks is the titler's store, thrown as an Error or as anything else.
  for (const [thrown, said] of [
    [new Error('database is locked'), 'database is locked'],
    [null, 'null'],
  ] as const) {
    const broken = titler(
      [
        { role: 'user', content: 'Q', status: 'complete' },
        { role: 'assistant', content: 'A', status: 'complete' },
      ],
      {
        getThread: () => {
          throw thrown;
        },
      },
    );
    await broken.bg.afterTurn('th', true);
    await broken.bg.idle();
    assert.deepEqual(broken.logs, [`titles: ${said}`]);
  }
});

test('a turn that arrives between two titles stops the second before it is asked', async () => {
  let busy = true;
  const stop = new AbortController();
  const { bg, asked } = titler(
    [
      { role: 'user', content: 'Q', status: 'complete' },
      { role: 'assistant', content: 'A', status: 'complete' },
    ],
    { lane: () => (busy ? null : stop.signal), onTitle: () => stop.abort() },
  );
  await bg.afterTurn('one', true);
  await bg.afterTurn('two', true);
  assert.deepEqual(asked, [], 'both wait while the pool is busy');
  busy = false;
  await bg.afterTurn('one', true);
  await bg.idle();
  assert.equal(asked.length, 1, 'the turn that arrived as the first title came stops the second');
});
