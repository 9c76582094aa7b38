import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { persona } from '@/e2e/double/persona';
import { startSearxDouble, type SearxDouble } from '@/e2e/double/searxng-double';
import { startLlamaDouble, type DoubleReply, type DoubleRequest, type LlamaDouble } from '@/e2e/double/llama-double';
import type { DecisionRecord } from '@/lib/contract/decisions';
import { isTitleRequest } from '@/lib/turns/supervisor/titles';
import { EventReader, httpCall, type Ev } from './client';
import { startHearth, type HearthServer } from './hearth-server';

/**
 * The gate as a user meets it, against `next start` and the double (issue 51): the verdict
 * judges every draft the free layer does not set aside. A deferral in a language Hearth's
 * classifier never saw reaches the verdict, whose "research" forces a round with its query; an
 * answer that ends with an offer (a pattern's match alone) is judged, not set aside; an answer
 * that carries this turn's tool results is accepted by that rule with no verdict call, and one
 * that ignores them is judged; with "Ask the model about every answer" off, the classifier's
 * "clearly an answer" is trusted as before.
 */

let double: LlamaDouble;
let searx: SearxDouble;
let judging: HearthServer;
let trusting: HearthServer;

before(async () => {
  [double, searx] = await Promise.all([startLlamaDouble(), startSearxDouble()]);
  const env = { LLAMA_URL: double.url, SEARXNG_URL: searx.url, MODEL_SLOTS: '1', MODEL_TIMEOUT_MS: '20000', HEARTH_TITLES: 'first-words' };
  [judging, trusting] = await Promise.all([startHearth(env), startHearth({ ...env, HEARTH_JUDGE_EVERY_ANSWER: 'false' })]);
});

after(async () => {
  const logs = [judging, trusting].map((s) => s?.stderr() ?? '').join('\n');
  await Promise.all([judging?.stop(), trusting?.stop()]);
  await Promise.all([double?.close(), searx?.close()]);
  assert.doesNotMatch(logs, /Something went wrong|⨯|TypeError|ReferenceError/, 'a server logged an unexpected error');
});

afterEach(() => double?.setScript(undefined));

const lastUser = (req: DoubleRequest) => {
  const c = req.messages.filter((m) => m.role === 'user').at(-1)?.content;
  return typeof c === 'string' ? c : '';
};
const asked = (req: DoubleRequest, question: string) =>
  !req.schema && !isTitleRequest(req) && req.messages.some((m) => m.role === 'user' && m.content === question);
const usedTools = (req: DoubleRequest) => req.messages.some((m) => m.role === 'tool');

/** The conversation model writes `draft` for `question` until it is forced to use a tool; the persona does the rest. */
function drafting(question: string, draft: (req: DoubleRequest) => DoubleReply | null) {
  double.setScript((req) => (asked(req, question) && req.toolChoice !== 'required' && draft(req)) || persona(req));
}

async function turn(server: HearthServer, question: string) {
  const t = await httpCall(server.url, 'POST', '/api/threads', { json: {} });
  assert.equal(t.status, 201, t.text);
  const seen = double.requests.length;
  const res = await fetch(`${server.url}/api/threads/${(t.body as { id: string }).id}/messages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ content: question }),
  });
  assert.equal(res.status, 200);
  const events: Ev[] = await new EventReader(res.body!).rest();
  const requests = double.requests.slice(seen);
  const decisions = events.flatMap((e) => (e.type === 'decision' ? [e.record] : []));
  const step = (id: string) => decisions.filter((d) => d.stepId === id);
  const message = events.find((e) => e.type === 'message');
  return {
    events,
    requests,
    step,
    verdictCalls: requests.filter((r) => r.schema && 'verdict' in ((r.schema as { properties?: object }).properties ?? {})).length,
    rejected: events.flatMap((e) => (e.type === 'draft_rejected' ? [e] : [])),
    answer: message?.type === 'message' ? message.content : '',
    acceptedBy: (step('acceptance').at(-1)?.answers.accepted_by as { value?: string } | undefined)?.value ?? '',
  };
}

const text = (record: DecisionRecord | undefined, key: string) => (record?.answers[key] as { value?: string } | undefined)?.value;

describe('the gate judges every draft', () => {
  test('a deferral in a language the classifier never saw reaches the verdict, whose "research" forces a round with its query', async () => {
    const cases = [
      [
        'ja',
        '今日の円とユーロの為替レートはいくらですか？',
        '申し訳ありませんが、私はリアルタイムの為替レートにアクセスできません。最新の情報は銀行のサイトで確認してください。',
      ],
      [
        'ru',
        'Какой сегодня курс евро к рублю?',
        'К сожалению, у меня нет доступа к актуальным курсам валют, поэтому я не могу проверить сегодняшний курс.',
      ],
      ['tr', 'Bugün euro kaç lira?', 'Maalesef güncel döviz kurlarına erişimim yok, bu yüzden bugünkü kuru kontrol edemem.'],
      ['hi', 'आज यूरो का रुपये में भाव क्या है?', 'माफ़ कीजिए, मेरे पास आज की विनिमय दरों तक पहुंच नहीं है, इसलिए मैं इसकी जांच नहीं कर सकता।'],
    ] as const;
    for (const [language, question, deferral] of cases) {
      drafting(question, (req) => (usedTools(req) ? null : { content: deferral }));
      const t = await turn(judging, question);
      const classifier = t.step('deferral_classifier')[0];
      assert.ok(classifier, `${language}: the classifier read the draft`);
      assert.notEqual(text(classifier, 'outcome'), 'a deferral, and a pattern agrees: set aside', `${language}: not set aside unjudged`);
      assert.equal(t.rejected[0]?.reason, 'verdict', `${language}: the verdict set it aside`);
      const query = t.rejected[0]?.query ?? '';
      assert.ok(query.length > 0, `${language}: the verdict gave its query`);
      // The forced round: tools required, the nudge in English naming the query, and the search it asked for.
      const forced = t.requests.find((r) => !r.schema && r.toolChoice === 'required');
      assert.ok(forced, `${language}: the next round was forced to use a tool`);
      assert.ok(lastUser(forced).startsWith(`That does not answer the question. Search for "${query.replace(/["“”]/g, '').trim()}" now`));
      assert.match(lastUser(forced), /Answer in the language of the question\.$/);
      const search = t.events.find((e) => e.type === 'tool_call' && e.name === 'web_search');
      assert.ok(
        search?.type === 'tool_call' && JSON.parse(search.arguments).query === query.replace(/["“”]/g, '').trim(),
        `${language}: searched`,
      );
      assert.ok(!t.answer.includes(deferral), `${language}: the deferral never became the answer`);
      assert.match(t.acceptedBy, /^the (rule|verdict)/, `${language}: the researched answer says who accepted it`);
    }
  });

  test('an answer that ends with an offer (a pattern alone) goes to the verdict, which accepts it, instead of being set aside', async () => {
    const question = 'When is the next train from Pembroke to Cardiff?';
    const draft = 'The 18:40 from Pembroke arrives in Cardiff at 22:10, with a change at Swansea. Shall I check return trains too?';
    drafting(question, () => ({ content: draft }));
    const t = await turn(judging, question);
    assert.deepEqual(t.rejected, [], 'nothing set aside');
    assert.equal(t.answer, draft);
    assert.equal(
      text(t.step('deferral_classifier')[0], 'outcome'),
      'a pattern matched, but the classifier does not agree: the verdict decides',
    );
    assert.equal(t.verdictCalls, 1, 'the verdict was asked');
    assert.match(t.acceptedBy, /^the verdict \(the model read it: it answers, \d+% sure\)$/);
  });

  test('an answer that quotes this turn’s tool results is accepted with no verdict call; one that ignores them is judged', async () => {
    const question = 'What is the tideway level at Putney?';
    const searched = (content: string) => (req: DoubleRequest) =>
      usedTools(req) ? { content } : { toolCalls: [{ name: 'web_search', arguments: { query: 'tideway level Putney' } }] };
    drafting(question, searched('The figure today is 42, according to example.org.'));
    const quoting = await turn(judging, question);
    assert.deepEqual(quoting.rejected, []);
    assert.equal(quoting.verdictCalls, 0, 'no verdict call');
    assert.equal(quoting.acceptedBy, 'the rule: it uses this turn’s tool results');
    assert.match(text(quoting.step('acceptance')[0], 'matched') ?? '', /\b42\b/, 'the Checks name what it carried');

    drafting(question, searched('Levels on the river change with the tide through the day.'));
    const ignoring = await turn(judging, question);
    assert.equal(ignoring.verdictCalls, 1, 'the verdict judged it');
    assert.match(ignoring.acceptedBy, /^the verdict/);
  });

  test('with "Ask the model about every answer" off, the classifier’s "clearly an answer" skips the verdict, as before', async () => {
    const question = 'Какой сегодня курс евро к рублю?';
    const deferral = 'К сожалению, у меня нет доступа к актуальным курсам валют, поэтому я не могу проверить сегодняшний курс.';
    drafting(question, (req) => (usedTools(req) ? null : { content: deferral }));
    const t = await turn(trusting, question);
    assert.equal(t.verdictCalls, 0, 'no verdict call');
    assert.deepEqual(t.rejected, []);
    assert.equal(t.answer, deferral, 'the unjudged deferral reached the user: what the setting trades');
    assert.equal(text(t.step('deferral_classifier')[0], 'outcome'), 'clearly an answer: no verdict asked');
    assert.match(t.acceptedBy, /^the classifier alone \(deferral \d+%\): “Ask the model about every answer” is off$/);
    const settings = await httpCall(trusting.url, 'GET', '/api/settings');
    assert.equal((settings.body as { settings: { judgeEveryAnswer: boolean } }).settings.judgeEveryAnswer, false, 'the environment set it');
    // The page turns it back on, from the next turn.
    const on = await httpCall(trusting.url, 'PATCH', '/api/settings', { json: { judgeEveryAnswer: true } });
    assert.equal(on.status, 200, on.text);
    const judged = await turn(trusting, question);
    assert.equal(judged.rejected[0]?.reason, 'verdict', 'on again: the verdict sets it aside');
    await httpCall(trusting.url, 'PATCH', '/api/settings', { json: { judgeEveryAnswer: null } });
  });
});
