import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Conversation, type ConversationDeps } from './conversation';

function setup(transcripts: string[] = ['what time is it'], sendOk = true) {
  const log: string[] = [];
  let clock = 0;
  let recordings = 0;
  const deps: ConversationDeps = {
    record() {
      const n = ++recordings;
      log.push(`record ${n}`);
      return { stop: async () => (log.push(`stop ${n}`), new Blob([`audio ${n}`])) };
    },
    async transcribe(audio) {
      clock += 300;
      log.push(`transcribe ${await audio.text()}`);
      return { text: transcripts.shift() ?? '' };
    },
    async send({ text }) {
      log.push(`send ${text}`);
      return sendOk;
    },
    interrupt: () => log.push('interrupt'),
    now: () => clock,
    onPhase: (p) => log.push(p),
    onError: (m) => log.push(`error ${m}`),
  };
  const tick = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  return { log, conversation: new Conversation(deps), tick, advance: (ms: number) => (clock += ms) };
}

test('a turn: listen, hear the end of speech, send what was said, speak the answer, listen again; with its figures', async () => {
  const { log, conversation, tick, advance } = setup();
  conversation.start();
  conversation.voice('start');
  conversation.voice('end');
  await tick();
  assert.deepEqual(log, [
    'record 1',
    'listening',
    'hearing',
    'transcribing',
    'stop 1',
    'transcribe audio 1',
    'answering',
    'send what time is it',
  ]);
  assert.ok(conversation.strict, 'a cut-in must be a person while Hearth answers');
  advance(500);
  conversation.firstToken();
  advance(700);
  conversation.sounding();
  assert.equal(conversation.phase, 'speaking');
  conversation.answered();
  assert.deepEqual(log.slice(-3), ['speaking', 'record 2', 'listening']);
  assert.deepEqual(conversation.figures, { transcriptMs: 300, firstTokenMs: 800, firstSoundMs: 1500 });
});

test('speaking while Hearth speaks cuts in: its voice and turn stop at once, and what is said is the next turn', async () => {
  const { log, conversation, tick } = setup(['tell me a story', 'stop, tell me another']);
  conversation.start();
  conversation.voice('start');
  conversation.voice('end');
  await tick();
  conversation.sounding();
  conversation.voice('start');
  assert.deepEqual(log.slice(-3), ['interrupt', 'record 2', 'hearing']);
  conversation.voice('end');
  await tick();
  assert.equal(log.at(-1), 'send stop, tell me another');
  // The first answer's end, heard late, does not start listening in the middle of the second.
  assert.equal(conversation.phase, 'answering');
});

test('nothing heard, or a send refused: it listens again; stopped, it lets the microphone go and stops Hearth speaking', async () => {
  const { log, conversation, tick } = setup(['  ', 'hello'], false);
  conversation.start();
  conversation.voice('start');
  conversation.voice('end');
  await tick();
  assert.deepEqual(log.slice(-2), ['record 2', 'listening']);
  conversation.voice('start');
  conversation.voice('end');
  await tick();
  assert.ok(log.includes('send hello'));
  assert.equal(conversation.phase, 'listening', 'a refused send (the notice says why) goes back to listening');
  conversation.stop();
  await tick();
  assert.ok(log.includes('stop 3'));
  assert.equal(log.at(-1), 'off');
  conversation.voice('start');
  assert.equal(conversation.phase, 'off');
});
