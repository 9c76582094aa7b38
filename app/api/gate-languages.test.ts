import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { persona } from '@/e2e/double/persona';
import { startLlamaDouble, type DoubleRequest, type LlamaDouble } from '@/e2e/double/llama-double';
import { startSearxDouble, type SearxDouble } from '@/e2e/double/searxng-double';
import { setRuntime } from '@/lib/services/runtime';
import { makeRuntime, newThread, rounds, send, type Ev } from './harness';

/**
 * The gate's classifier through the route handlers (issues 30 and 51): deferrals written in
 * French, German and Chinese, which no pattern knows, are flagged by the classifier; with no
 * pattern agreeing, the verdict judges them and sets them aside with its query, the nudge goes
 * back in English and the turn researches; an answer that ends by offering more is judged by the
 * verdict and accepted; the classifier's judgement is a decision record with its score and its
 * own source.
 */

let double: LlamaDouble;
let searx: SearxDouble;
before(async () => {
  double = await startLlamaDouble();
  searx = await startSearxDouble();
  await makeRuntime({ llamaUrl: double.url, searxUrl: searx.url });
});
after(async () => {
  setRuntime(undefined);
  await double.close();
  await searx.close();
});

/** A model that defers in the user's language until it is made to search, then answers from the results. */
function defersIn(deferral: string, answer: string) {
  return (r: DoubleRequest) => {
    if (r.schema) return persona(r);
    if (r.messages.some((m) => m.role === 'tool')) return { content: answer };
    if (r.toolChoice === 'required') return { toolCalls: [{ name: 'web_search', arguments: { query: 'horaires' } }] };
    return { content: deferral };
  };
}
const decisions = (evs: Ev[], step: string) => evs.flatMap((e) => (e.type === 'decision' && e.record.stepId === step ? [e.record] : []));

describe('deferrals in other languages', () => {
  const cases = [
    {
      lang: 'French',
      question: 'À quelle heure ouvre la piscine de Nantes demain ?',
      deferral: "Je n'ai malheureusement pas accès aux horaires actuels. Voulez-vous que je fasse une recherche ?",
      answer: 'Selon le site de la ville, la piscine ouvre demain à 7 h 30.',
    },
    {
      lang: 'German',
      question: 'Wann öffnet das Hallenbad in Köln morgen?',
      deferral: 'Dazu habe ich leider keine aktuellen Informationen. Soll ich im Internet nachsehen?',
      answer: 'Laut der Website der Stadt öffnet das Hallenbad morgen um 7:30 Uhr.',
    },
    {
      lang: 'Chinese',
      question: '明天南京的游泳馆几点开门？',
      deferral: '抱歉，我无法获取最新的开放时间。要我在网上帮你查一下吗？',
      answer: '根据官网，游泳馆明天早上7:30开门。',
    },
  ];
  for (const c of cases) {
    test(`${c.lang}: the classifier flags the deferral, the verdict sets it aside with its query, the nudge is in English, and the answer comes from a search`, async () => {
      double.setScript(defersIn(c.deferral, c.answer));
      double.requests.length = 0;
      const id = await newThread();
      const evs = await send(id, c.question);
      const rejected = evs.find((e) => e.type === 'draft_rejected');
      assert.ok(rejected && rejected.type === 'draft_rejected', 'set aside');
      assert.equal(rejected.reason, 'verdict');
      assert.match(rejected.detail ?? '', /^p\(research\) = [01](\.\d+)?$/);
      assert.equal(rejected.query, c.question.slice(0, 80), 'the verdict’s query');
      const [judged] = decisions(evs, 'deferral_classifier');
      assert.equal(judged.source, 'classifier');
      const p = judged.answers.is_deferral;
      assert.ok(p.kind === 'boolean' && p.value && p.p >= 0.5);
      assert.deepEqual(judged.answers.outcome, { kind: 'text', value: 'a deferral, but no pattern agrees: the verdict decides' });
      // The verdict read the deferral itself.
      const verdicts = double.requests.filter((r) => r.schema && 'verdict' in ((r.schema as { properties?: object }).properties ?? {}));
      assert.ok(
        verdicts.some((v) => JSON.stringify(v.messages).includes(JSON.stringify(c.deferral).slice(1, 21))),
        'the verdict was asked of the deferral',
      );
      // Hearth's nudge is English; what the user reads is the model's own words, in their language.
      const nudged = rounds(double)[1];
      assert.match(JSON.stringify(nudged.messages.at(-1)), /That does not answer the question\. Search for \\"[^"]+\\" now/);
      assert.match(JSON.stringify(nudged.messages.at(-1)), /Answer in the language of the question\./);
      assert.ok(!JSON.stringify(nudged.messages).includes(c.deferral), 'the draft set aside is never sent back');
      const answer = evs.find((e) => e.type === 'message');
      assert.ok(answer && answer.type === 'message');
      assert.equal(answer.content, c.answer);
    });
  }
});

describe('an answer that ends with an offer', () => {
  test('is judged by the verdict and accepted, not set aside: the work it reports comes before the offer', async () => {
    const offer = 'The 18:20 from Paddington reaches Bath Spa at 19:45, according to National Rail. Shall I check return trains too?';
    double.setScript((r) => (r.schema ? persona(r) : { content: offer }));
    const id = await newThread();
    const evs = await send(id, 'When does the 18:20 from Paddington get to Bath?');
    assert.ok(!evs.some((e) => e.type === 'draft_rejected'), JSON.stringify(evs.filter((e) => e.type === 'draft_rejected')));
    const answer = evs.find((e) => e.type === 'message');
    assert.ok(answer && answer.type === 'message');
    assert.equal(answer.content, offer);
    const [judged] = decisions(evs, 'deferral_classifier');
    const p = judged.answers.is_deferral;
    assert.ok(p.kind === 'boolean' && !p.value && p.p < 0.5, `p(deferral) = ${JSON.stringify(p)}`);
    assert.deepEqual(judged.answers.outcome, { kind: 'text', value: 'not a deferral' });
    const [accepted] = decisions(evs, 'acceptance');
    assert.match((accepted.answers.accepted_by as { value: string }).value, /^the verdict/);
  });
});
