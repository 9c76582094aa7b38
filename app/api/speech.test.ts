import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { setRuntime } from '@/lib/services/runtime';
import { events, getThread, makeRuntime, newThread, params, req, rounds, sharedDouble } from './harness';
import * as attachment from './attachments/[id]/route';
import * as messages from './threads/[id]/messages/route';
import * as health from './health/route';
import * as speech from './audio/speech/route';
import * as transcriptions from './audio/transcriptions/route';

/**
 * Talking to Hearth through the speech servers: a recording goes to the speech-to-text server as
 * a multipart file with a model and comes back as words; an answer's Markdown goes to the
 * text-to-speech server as words and comes back as audio, streamed. Bad input is a clear 4xx
 * before any server is asked; a server that is not set, down, loading or failing is named.
 */

const models = sharedDouble();
let voice: LlamaDouble;
before(async () => {
  voice = await startLlamaDouble({ speech: { transcript: (h) => (h.language === 'de' ? 'wie spät ist es' : 'what time is it') } });
});
after(async () => {
  setRuntime(undefined);
  await voice.close();
});

/** A tiny WAV: RIFF header and a few samples of silence. */
function wav(samples = 800): Uint8Array {
  const data = samples * 2;
  const b = Buffer.alloc(44 + data);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(36 + data, 4);
  b.write('WAVEfmt ', 8, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(16000, 24);
  b.writeUInt32LE(32000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(data, 40);
  return new Uint8Array(b);
}

function recording(bytes: Uint8Array, fields: Record<string, string> = {}, name = 'clip.wav'): Request {
  const form = new FormData();
  form.set('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'audio/wav' }), name);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return new Request('http://127.0.0.1:3000/api/audio/transcriptions', { method: 'POST', body: form });
}

const speak = (body: unknown) => speech.POST(req('POST', '/api/audio/speech', body));
const error = async (res: Response) => ({
  status: res.status,
  ...((await res.json()) as { error: { code: string; message: string } }).error,
});

function withServers(env: Record<string, string> = {}) {
  return makeRuntime({
    llamaUrl: models.double.url,
    env: { HEARTH_STT_URL: voice.baseUrl, HEARTH_TTS_URL: voice.baseUrl, HEARTH_TTS_VOICE: 'af_heart', ...env },
  });
}

describe('speech to text', () => {
  test('a recording goes to the server as a multipart file with a model (and the language) and comes back as words', async () => {
    await withServers({ HEARTH_STT_MODEL: 'whisper-large-v3-turbo' });
    const before = voice.heard.length;
    const res = await transcriptions.POST(recording(wav(), { language: 'de' }));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { text: 'wie spät ist es' });
    const [heard] = voice.heard.slice(before);
    assert.equal(heard.model, 'whisper-large-v3-turbo');
    assert.equal(heard.language, 'de');
    assert.deepEqual(heard.file, { name: 'recording.wav', type: 'audio/wav', bytes: wav().byteLength, head: 'RIFF' });
    // With no model set, OpenAI's own name, which a server of one model ignores.
    await withServers();
    await transcriptions.POST(recording(wav()));
    assert.equal(voice.heard.at(-1)!.model, 'whisper-1');
    assert.equal(voice.heard.at(-1)!.language, undefined);
  });

  test('bad input is a clear 4xx and nothing reaches the server', async () => {
    await withServers();
    const before = voice.heard.length;
    const cases: [Request, number, string, RegExp][] = [
      [recording(new TextEncoder().encode('just some text, not audio at all')), 415, 'unsupported_type', /not audio/],
      [recording(new Uint8Array(0)), 400, 'bad_request', /empty/],
      [recording(wav(), { language: 'German!' }), 400, 'bad_request', /^language: /],
      [
        new Request('http://127.0.0.1:3000/api/audio/transcriptions', {
          method: 'POST',
          body: (() => {
            const f = new FormData();
            f.set('note', 'no file here');
            return f;
          })(),
        }),
        400,
        'bad_request',
        /field called "file"/,
      ],
      [
        new Request('http://127.0.0.1:3000/api/audio/transcriptions', {
          method: 'POST',
          headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(26 * 1024 * 1024) },
          body: 'x',
        }),
        413,
        'too_large',
        /larger than 25 MB/,
      ],
      [req('POST', '/api/audio/transcriptions', { file: 'a' }), 415, 'unsupported_type', /multipart/],
    ];
    for (const [request, status, code, message] of cases) {
      const e = await error(await transcriptions.POST(request));
      assert.equal(e.status, status, e.message);
      assert.equal(e.code, code);
      assert.match(e.message, message);
    }
    assert.equal(voice.heard.length, before);
  });
});

describe('keeping recordings', () => {
  test('kept only when asked and Keep recordings is on: an attachment of the message, with its transcript, that the model does not read twice', async () => {
    const rt = await withServers();
    let res = await transcriptions.POST(recording(wav(), { keep: 'true' }));
    assert.deepEqual(await res.json(), { text: 'what time is it' }, 'Keep recordings is off: nothing is kept');
    await rt.settings.update({ keepRecordings: true }, 1);
    res = await transcriptions.POST(recording(wav()));
    assert.deepEqual(await res.json(), { text: 'what time is it' }, 'not asked to keep this one');
    assert.equal((await error(await transcriptions.POST(recording(wav(), { keep: 'yes' })))).status, 400);

    res = await transcriptions.POST(recording(wav(1600), { keep: 'true' }));
    const heard = (await res.json()) as {
      text: string;
      attachment: { id: string; name: string; mime: string; size: number; kind: string };
    };
    assert.equal(heard.text, 'what time is it');
    assert.match(heard.attachment.name, /^Recording \d{4}-\d\d-\d\d \d\d\.\d\d\.wav$/);
    assert.deepEqual([heard.attachment.mime, heard.attachment.size, heard.attachment.kind], ['audio/wav', wav(1600).byteLength, 'audio']);
    // The recording plays in the page as itself; its text is the transcript.
    const file = await attachment.GET(req('GET', `/api/attachments/${heard.attachment.id}`), params({ id: heard.attachment.id }));
    assert.equal(file.headers.get('content-type'), 'audio/wav');
    assert.match(file.headers.get('content-disposition') ?? '', /^inline;/);
    assert.deepEqual(new Uint8Array(await file.arrayBuffer()), wav(1600));
    const text = await attachment.GET(req('GET', `/api/attachments/${heard.attachment.id}?part=text`), params({ id: heard.attachment.id }));
    assert.equal(await text.text(), 'what time is it');

    // Sent with the message it spoke: kept with it, and the model reads the words once, as the message.
    const id = await newThread();
    const sent = await messages.POST(
      req('POST', `/api/threads/${id}/messages`, { content: heard.text, attachmentIds: [heard.attachment.id] }),
      params({ id }),
    );
    assert.ok((await events(sent)).some((e) => e.type === 'done'));
    const question = rounds(models.double)
      .at(-1)!
      .messages.filter((m) => m.role === 'user')
      .at(-1)!;
    assert.equal(question.content, 'what time is it');
    const { body } = await getThread(id);
    assert.equal(body.messages[0].attachments[0].kind, 'audio');
  });
});

describe('text to speech', () => {
  test("an answer's Markdown reaches the server as words, with the voice, and its audio comes back as it is streamed", async () => {
    await withServers({ HEARTH_TTS_MODEL: 'kokoro' });
    const before = voice.spoken.length;
    const res = await speak({ text: '## Result\n\nIt is **12 km** to [Bergen](https://example.com).\n\n```sh\nls -la\n```' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'audio/mpeg');
    const audio = new Uint8Array(await res.arrayBuffer());
    assert.ok(audio.byteLength > 1000);
    assert.deepEqual([...audio.subarray(0, 2)], [0xff, 0xfb]);
    assert.deepEqual(voice.spoken.slice(before), [
      { model: 'kokoro', input: 'Result. It is 12 kilometres to Bergen. a shell code block.', voice: 'af_heart', responseFormat: 'mp3' },
    ]);
    // A voice asked for wins for this once; a speed set in Settings goes with it.
    await (
      await makeRuntime({ llamaUrl: models.double.url, env: { HEARTH_TTS_URL: voice.baseUrl } })
    ).settings.update({ speechSpeed: 1.25 }, 1);
    await (await speak({ text: 'Hello there.', voice: 'bm_george' })).arrayBuffer();
    assert.deepEqual(voice.spoken.at(-1), {
      model: 'tts-1',
      input: 'Hello there.',
      voice: 'bm_george',
      responseFormat: 'mp3',
      speed: 1.25,
    });
  });

  test('nothing to say, too much at once, or not text is a 4xx and the server is not asked', async () => {
    await withServers();
    const before = voice.spoken.length;
    const cases: [unknown, number, string, RegExp][] = [
      [{ text: '' }, 400, 'bad_request', /no words/],
      [{ text: '<br>' }, 400, 'bad_request', /no words/],
      [{ text: 'word '.repeat(1000) }, 413, 'too_large', /too long to speak at once/],
      [{ text: 5 }, 400, 'bad_request', /^text: /],
      [{ text: 'hi', extra: true }, 400, 'bad_request', /extra/],
    ];
    for (const [body, status, code, message] of cases) {
      const e = await error(await speak(body));
      assert.equal(e.status, status, e.message);
      assert.equal(e.code, code);
      assert.match(e.message, message);
    }
    assert.equal(voice.spoken.length, before);
  });
});

describe('speech servers that are not there', () => {
  test('with none set both routes say so (the page then uses the browser’s own), and health lists none', async () => {
    await makeRuntime({ llamaUrl: models.double.url });
    for (const res of [await transcriptions.POST(recording(wav())), await speak({ text: 'Hello.' })]) {
      const e = await error(res);
      assert.equal(e.status, 503);
      assert.equal(e.code, 'no_speech_server');
      assert.match(e.message, /Settings → Voice/);
    }
    const report = await (await health.GET(req('GET', '/api/health'))).json();
    assert.deepEqual(report.speech, { stt: null, tts: null });
  });

  test('a server that is down, loading or failing is named with what it said; health says how each is', async () => {
    const down = 'http://127.0.0.1:9';
    await makeRuntime({ llamaUrl: models.double.url, env: { HEARTH_STT_URL: down, HEARTH_TTS_URL: down } });
    let e = await error(await speak({ text: 'Hello.' }));
    assert.deepEqual([e.status, e.code], [503, 'speech_unreachable']);
    assert.match(e.message, /text-to-speech server at http:\/\/127\.0\.0\.1:9 cannot be reached/);
    e = await error(await transcriptions.POST(recording(wav())));
    assert.match(e.message, /speech-to-text server at http:\/\/127\.0\.0\.1:9 cannot be reached/);
    const report = await (await health.GET(req('GET', '/api/health'))).json();
    assert.equal(report.speech.stt.reachable, false);
    assert.equal(report.ok, true, 'a speech server does not make Hearth unhealthy');

    const loading = await startLlamaDouble({ speech: { fail: { status: 503, message: 'Loading model' } } });
    const failing = await startLlamaDouble({ speech: { fail: { status: 500, message: 'CUDA out of memory' } } });
    try {
      await makeRuntime({ llamaUrl: models.double.url, env: { HEARTH_STT_URL: loading.baseUrl, HEARTH_TTS_URL: failing.baseUrl } });
      e = await error(await transcriptions.POST(recording(wav())));
      assert.deepEqual([e.status, e.code], [503, 'speech_unreachable']);
      assert.match(e.message, /still loading its model \(Loading model\)/);
      e = await error(await speak({ text: 'Hello.' }));
      assert.deepEqual([e.status, e.code], [502, 'speech_error']);
      assert.match(e.message, /text-to-speech server at .* answered with an error \(500: CUDA out of memory\)/);
      const h = await (await health.GET(req('GET', '/api/health'))).json();
      assert.deepEqual(
        [h.speech.stt.reachable, h.speech.tts.reachable],
        [true, true],
        'both answer their model list; the failure is in the work',
      );
    } finally {
      await loading.close();
      await failing.close();
    }
  });
});
