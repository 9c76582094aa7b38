import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSpeaker, type SpeakerDeps } from './speaker';

/** A speaker over fakes that log what happens, in order. */
function fakes(opts: { noServer?: boolean; failAt?: number } = {}) {
  const log: string[] = [];
  const ends: (() => void)[] = [];
  const deps: SpeakerDeps = {
    async synthesize(text) {
      log.push(`ask ${text}`);
      if (opts.failAt !== undefined && log.filter((l) => l.startsWith('ask')).length - 1 === opts.failAt) throw new Error('server down');
      return opts.noServer ? 'no-server' : new Blob([text]);
    },
    play: async (audio, signal) => {
      log.push(`play ${await audio.text()}`);
      await new Promise<void>((resolve) => {
        ends.push(resolve);
        signal.addEventListener('abort', () => {
          ends.splice(ends.indexOf(resolve), 1);
          resolve();
        });
      });
    },
    say: async (text) => {
      log.push(`say ${text}`);
    },
  };
  /** Lets the audio playing now end. */
  const finish = async () => {
    await new Promise((r) => setImmediate(r));
    ends.shift()?.();
    await new Promise((r) => setImmediate(r));
  };
  return { log, deps, finish };
}

const ANSWER = 'The first one is here. Then the **second** one. And a `third` at last.';

test('each sentence is asked for while the one before it plays, and played in order', async () => {
  const { log, deps, finish } = fakes();
  const done = createSpeaker(deps).read(ANSWER);
  for (let i = 0; i < 3; i++) await finish();
  await done;
  assert.deepEqual(log, [
    'ask The first one is here.',
    'ask Then the second one.',
    'play The first one is here.',
    'ask And a third at last.',
    'play Then the second one.',
    'play And a third at last.',
  ]);
});

test('stop ends the reading at once; a new reading stops the last', async () => {
  const { log, deps, finish } = fakes();
  const speaker = createSpeaker(deps);
  const first = speaker.read(ANSWER);
  await finish();
  speaker.stop();
  await first;
  const asked = log.length;
  const second = speaker.read('Only this. And that.');
  await new Promise((r) => setImmediate(r));
  const third = speaker.read('Instead this one.');
  await finish();
  await Promise.all([second, third]);
  assert.equal(log.filter((l) => l === 'play And a third at last.').length, 0);
  assert.ok(log.slice(asked).includes('play Instead this one.'));
  assert.ok(!log.slice(asked).includes('play And that.'));
});

test("without a speech server the browser's own voice says every sentence", async () => {
  const { log, deps } = fakes({ noServer: true });
  await createSpeaker(deps).read(ANSWER);
  assert.deepEqual(
    log.filter((l) => l.startsWith('say')),
    ['say The first one is here.', 'say Then the second one.', 'say And a third at last.'],
  );
});

test('a failure is told once and the reading ends', async () => {
  const { log, deps, finish } = fakes({ failAt: 1 });
  const errors: unknown[] = [];
  const done = createSpeaker(deps).read(ANSWER, (e) => errors.push(e));
  await finish();
  await done;
  assert.equal(errors.length, 1);
  assert.match(String(errors[0]), /server down/);
  assert.deepEqual(
    log.filter((l) => l.startsWith('play')),
    ['play The first one is here.'],
  );
});

const tick = () => new Promise((r) => setImmediate(r));

test('an answer still streaming is spoken a sentence at a time as each is complete, none twice, the rest once accepted', async () => {
  const { log, deps, finish } = fakes();
  let firstSound = 0;
  const following = createSpeaker(deps).follow({ onFirstSound: () => firstSound++ });
  following.update('The first one');
  await tick();
  assert.deepEqual(log, [], 'nothing is complete yet');
  following.update('The first one is here. Then the **sec');
  await tick();
  assert.deepEqual(log, ['ask The first one is here.', 'play The first one is here.']);
  assert.equal(firstSound, 1);
  following.update('The first one is here. Then the **second** one. And');
  await tick();
  assert.deepEqual(log.slice(2), ['ask Then the second one.'], 'asked while the first plays');
  const done = following.finish(ANSWER);
  for (let i = 0; i < 3; i++) await finish();
  await done;
  assert.deepEqual(log.slice(3), ['ask And a third at last.', 'play Then the second one.', 'play And a third at last.']);
  assert.equal(firstSound, 1);
});

test('a short sentence waits for the next one, as a whole reading would join them', async () => {
  const { log, deps, finish } = fakes();
  const following = createSpeaker(deps).follow();
  following.update('Yes. It ');
  await tick();
  assert.deepEqual(log, []);
  const done = following.finish('Yes. It is open today.');
  await finish();
  await done;
  assert.deepEqual(log, ['ask Yes. It is open today.', 'play Yes. It is open today.']);
});

test('a followed draft cancelled (set aside by the gate, or cut in on) stops at once and says nothing more of it', async () => {
  const { log, deps } = fakes();
  const speaker = createSpeaker(deps);
  const following = speaker.follow();
  following.update('I can search for that if you like. Shall I look it up? ');
  await tick();
  following.cancel();
  following.update('I can search for that if you like. Shall I look it up? Or maybe not. ');
  await following.finish('I can search for that if you like. Shall I look it up? Or maybe not. Fine.');
  assert.deepEqual(log, ['ask I can search for that if you like.', 'ask Shall I look it up?', 'play I can search for that if you like.']);
  // The next answer is followed afresh.
  const next = speaker.follow();
  next.update('It is open. Today ');
  await tick();
  assert.equal(log.at(-1), 'play It is open.');
  speaker.stop();
});

test('words that change as the answer goes on are said from where they part, not again from the start', async () => {
  const { log, deps, finish } = fakes();
  const following = createSpeaker(deps).follow();
  following.update('It is open from 9. To ');
  await tick();
  const done = following.finish('It is open from 9-17 h. Come early.');
  for (let i = 0; i < 3; i++) await finish();
  await done;
  assert.deepEqual(
    log.filter((l) => l.startsWith('play')),
    ['play It is open from 9.', 'play 9 to 17 hours.', 'play Come early.'],
  );
});
