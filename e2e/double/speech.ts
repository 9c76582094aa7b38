import type http from 'node:http';

/**
 * The speech servers as the double plays them, from OpenAI's audio API (the shapes llama-server
 * with an audio model, whisper.cpp's server with --inference-path /v1/audio/transcriptions,
 * Kokoro-FastAPI and llama-swap answer):
 *  - POST /v1/audio/transcriptions, multipart: `file` (the recording), `model`, and optionally
 *    `language`, `prompt`, `response_format` (json by default), `temperature`; answers
 *    {"text": "…"} (response_format text: the words alone, as text/plain). No file is 400.
 *  - POST /v1/audio/speech, JSON {model, input, voice, response_format (mp3 by default), speed};
 *    answers the audio with its type (audio/mpeg for mp3), sent as it is made; an empty input is
 *    400; Kokoro-FastAPI's refusals come as FastAPI's {"detail": {"error", "message", "type"}}.
 *  - While the model loads (llama-server, whisper.cpp) both answer 503; `fail` makes either
 *    answer an error of the test's choosing.
 */

export type SpeechDoubleOptions = {
  /** The words a recording is heard as (by default: "what time is it"). */
  transcript?: (heard: Heard) => string;
  /** Both endpoints answer this status and message instead (503: a model still loading). */
  fail?: { status: number; message: string };
  /** Milliseconds between the audio's parts, to show it is streamed (0 by default). */
  partDelayMs?: number;
};

export type Heard = { model: string; language?: string; file: { name: string; type: string; bytes: number; head: string } };
export type Spoken = { model: string; input: string; voice: string; responseFormat: string; speed?: number };

/** One MPEG-1 Layer III frame of silence (128 kb/s, 44.1 kHz, 26 ms): what the double's "audio" is made of. */
const SILENT_FRAME = (() => {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return frame;
})();

function readRaw(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

const send = (res: http.ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
};
const openAiError = (message: string, status: number) => ({
  error: { message, type: status === 503 ? 'unavailable_error' : 'invalid_request_error', param: null, code: status },
});

export function speechDouble(options: SpeechDoubleOptions = {}) {
  const heard: Heard[] = [];
  const spoken: Spoken[] = [];
  /** What the next recordings are heard as, in order, before `transcript`'s (a test's script: POST /__speech). */
  const script: string[] = [];

  async function transcription(req: http.IncomingMessage, res: http.ServerResponse) {
    const raw = await readRaw(req);
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(raw), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
    } catch {
      return send(res, 400, openAiError('Could not parse multipart form', 400));
    }
    const file = form.get('file');
    if (!(file instanceof Blob)) return send(res, 400, openAiError("Missing required parameter: 'file'", 400));
    const bytes = Buffer.from(await file.arrayBuffer());
    const entry: Heard = {
      model: String(form.get('model') ?? ''),
      ...(form.get('language') ? { language: String(form.get('language')) } : {}),
      file: {
        name: file instanceof File ? file.name : '',
        type: file.type,
        bytes: bytes.byteLength,
        head: bytes.subarray(0, 4).toString('latin1'),
      },
    };
    heard.push(entry);
    if (options.fail) return send(res, options.fail.status, openAiError(options.fail.message, options.fail.status));
    const text = script.shift() ?? options.transcript?.(entry) ?? 'what time is it';
    if (form.get('response_format') === 'text') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      return res.end(text);
    }
    return send(res, 200, { text });
  }

  async function speech(req: http.IncomingMessage, res: http.ServerResponse) {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse((await readRaw(req)).toString('utf8')) as Record<string, unknown>;
    } catch {
      return send(res, 422, { detail: [{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error' }] });
    }
    const entry: Spoken = {
      model: String(body.model ?? ''),
      input: String(body.input ?? ''),
      voice: String(body.voice ?? ''),
      responseFormat: String(body.response_format ?? 'mp3'),
      ...(typeof body.speed === 'number' ? { speed: body.speed } : {}),
    };
    spoken.push(entry);
    if (options.fail) return send(res, options.fail.status, openAiError(options.fail.message, options.fail.status));
    if (!entry.input.trim())
      return send(res, 400, {
        detail: { error: 'validation_error', message: 'Text is empty after preprocessing', type: 'invalid_request_error' },
      });
    if (entry.responseFormat !== 'mp3')
      return send(res, 400, {
        detail: { error: 'validation_error', message: `Unsupported format ${entry.responseFormat}`, type: 'invalid_request_error' },
      });
    // About a third of a second of audio a word, in parts as a server streams them.
    const frames = Math.max(4, entry.input.split(/\s+/).length * 12);
    res.writeHead(200, { 'Content-Type': 'audio/mpeg', 'Transfer-Encoding': 'chunked' });
    for (let i = 0; i < frames; i += 8) {
      res.write(Buffer.concat(Array.from({ length: Math.min(8, frames - i) }, () => SILENT_FRAME)));
      if (options.partDelayMs) await new Promise((r) => setTimeout(r, options.partDelayMs));
    }
    res.end();
  }

  return {
    heard,
    spoken,
    /** POST /__speech {transcripts}: the words the next recordings are heard as. */
    async control(req: http.IncomingMessage, res: http.ServerResponse) {
      const body = JSON.parse((await readRaw(req)).toString('utf8')) as { transcripts?: string[] };
      script.splice(0, script.length, ...(body.transcripts ?? []));
      send(res, 200, { script });
    },
    /** Serves the request when it is one of the audio endpoints; false otherwise. */
    async handle(route: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
      if (req.method !== 'POST') return false;
      if (route === '/audio/transcriptions') await transcription(req, res);
      else if (route === '/audio/speech') await speech(req, res);
      else return false;
      return true;
    },
  };
}
