import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createVoiceActivity } from './voice-activity';

const clocks = new WeakMap<object, number>();

/** Feeds a level every 20 ms for `ms`, going on from the detector's last time; returns the events with their times. */
function run(vad: ReturnType<typeof createVoiceActivity>, parts: [level: number, ms: number][], strict = false) {
  const events: [string, number][] = [];
  let at = clocks.get(vad) ?? 0;
  for (const [level, ms] of parts)
    for (let t = 0; t < ms; t += 20, at += 20) {
      const e = vad.feed(level, at, strict);
      if (e) events.push([e, at]);
    }
  clocks.set(vad, at);
  return events;
}

test('speech starts once loud for a moment and ends after a stretch of quiet; a short pause between words does not end it', () => {
  const events = run(createVoiceActivity(), [
    [0.001, 1000],
    [0.2, 600],
    [0.001, 300],
    [0.2, 600],
    [0.001, 1500],
  ]);
  assert.deepEqual(events, [
    ['start', 1160],
    ['end', 3400],
  ]);
});

test('a click or a knock shorter than a syllable is not speech', () => {
  assert.deepEqual(
    run(createVoiceActivity(), [
      [0.001, 500],
      [0.5, 60],
      [0.001, 2000],
    ]),
    [],
  );
});

test("the room's steady noise is learned, so only what stands above it counts", () => {
  // A fan at 0.03 (twice the least level) from the start: the room's noise, not speech.
  assert.deepEqual(
    run(createVoiceActivity(), [
      [0.03, 3000],
      [0.12, 500],
      [0.03, 1500],
    ]),
    [
      ['start', 3160],
      ['end', 4400],
    ],
  );
  // Switched on later: heard as speech at first, then, too long for a person, learned as noise.
  const vad = createVoiceActivity({ maxSpeechMs: 5000 });
  assert.deepEqual(
    run(vad, [
      [0.001, 1000],
      [0.03, 8000],
    ]).map(([e]) => e),
    ['start', 'end'],
  );
  assert.deepEqual(run(vad, [[0.03, 3000]]), [], 'the fan alone no longer starts speech');
});

test('while Hearth speaks, cutting in needs a louder, longer voice than its own echo', () => {
  assert.deepEqual(
    run(
      createVoiceActivity(),
      [
        [0.001, 500],
        [0.025, 1000],
      ],
      true,
    ),
    [],
    'a faint echo does not cut in',
  );
  const events = run(
    createVoiceActivity(),
    [
      [0.001, 500],
      [0.2, 400],
    ],
    true,
  );
  assert.deepEqual(events, [['start', 800]]);
});
