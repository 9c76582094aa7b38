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
