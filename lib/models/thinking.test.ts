import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InlineThinking, splitThinking } from './thinking';

/** Streams `deltas` through one splitter; what came out as answer, as thinking, and any retraction. */
function stream(deltas: string[]) {
  const s = new InlineThinking();
  let answer = '';
  let thinking = '';
  const retracted: string[] = [];
  for (const piece of [...deltas.map((d) => s.push(d)), s.flush()]) {
    if (piece.retracted !== undefined) {
      retracted.push(piece.retracted);
      answer = answer.slice(0, answer.length - piece.retracted.length);
    }
    answer += piece.answer;
    thinking += piece.thinking;
  }
  return { answer, thinking, retracted };
}

/** Every way of cutting `text` in two. */
const cuts = (text: string) => Array.from({ length: text.length + 1 }, (_, i) => [text.slice(0, i), text.slice(i)]);

describe('inline thinking', () => {
  test('<think> … </think> is thinking, the rest the answer, without the blank line between', () => {
    assert.deepEqual(stream(['<think>\nThe user wants tides.\n</think>\n\nTides come from the Moon.']), {
      answer: 'Tides come from the Moon.',
      thinking: 'The user wants tides.\n',
      retracted: [],
    });
  });

  test('a marker cut anywhere across two deltas is still found, and never given out as answer text', () => {
    const text = '<think>Hmm.</think>Yes.';
    for (const [a, b] of cuts(text)) {
      const out = stream([a, b]);
      assert.equal(out.answer, 'Yes.', JSON.stringify([a, b]));
      assert.equal(out.thinking, 'Hmm.', JSON.stringify([a, b]));
    }
    // One character at a time, too.
    assert.deepEqual(stream([...text]), { answer: 'Yes.', thinking: 'Hmm.', retracted: [] });
  });

  test("[THINK] … [/THINK] (Magistral) and gpt-oss's harmony channels leaked as text", () => {
    assert.deepEqual(stream(['[THINK]Let me see.[/THINK]', 'It is 4.']), { answer: 'It is 4.', thinking: 'Let me see.', retracted: [] });
    const harmony = '<|channel|>analysis<|message|>User asks 2+2.<|end|><|start|>assistant<|channel|>final<|message|>4.';
    for (const [a, b] of cuts(harmony)) assert.deepEqual(stream([a, b]), { answer: '4.', thinking: 'User asks 2+2.', retracted: [] });
  });

  test('an unclosed <think> at the end is all thinking and no answer', () => {
    assert.deepEqual(stream(['<think>Still going', ' on and on']), { answer: '', thinking: 'Still going on and on', retracted: [] });
  });

  test('a closing marker with no opening one (the prompt opened it) takes back what was given out as answer', () => {
    const out = stream(['Okay, the user', ' asks about tides.', '</think>\n\nTides are', ' tidal.']);
    assert.deepEqual(out.retracted, ['Okay, the user asks about tides.']);
    assert.equal(out.thinking, 'Okay, the user asks about tides.');
    assert.equal(out.answer, 'Tides are tidal.');
  });

  test('text that only looks like the start of a marker comes out once the next delta shows it is not one', () => {
    const s = new InlineThinking();
    assert.deepEqual(s.push('a < b and [TH'), { answer: 'a < b and ', thinking: '' });
    assert.deepEqual(s.push('E END'), { answer: '[THE END', thinking: '' });
    assert.deepEqual(s.flush(), { answer: '', thinking: '' });
    assert.deepEqual(stream(['x <', 'y']), { answer: 'x <y', thinking: '', retracted: [] });
  });

  test('a stray closing marker after thinking took its place is dropped, not a retraction', () => {
    assert.deepEqual(stream(['<think>a</think>b', '</think>c']), { answer: 'bc', thinking: 'a', retracted: [] });
  });

  test('a reply with no markers is all answer; a whole reply splits the same as its stream', () => {
    assert.deepEqual(stream(['Plain ', 'answer.']), { answer: 'Plain answer.', thinking: '', retracted: [] });
    assert.deepEqual(splitThinking('<think>\nwhy\n</think>\n\nBecause.'), { answer: 'Because.', thinking: 'why' });
    assert.deepEqual(splitThinking('<think>never closed'), { answer: '', thinking: 'never closed' });
  });
});
