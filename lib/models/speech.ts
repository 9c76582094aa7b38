import OpenAI, { APIConnectionError, APIError, APIUserAbortError, toFile } from 'openai';
import { HearthError } from '@/lib/shared/errors';

/**
 * The speech servers, over OpenAI's audio API through the `openai` client: speech to text at
 * POST /v1/audio/transcriptions (a multipart file and a model; llama-server with an audio model,
 * whisper.cpp's server, faster-whisper servers, llama-swap in front of them) and text to speech
 * at POST /v1/audio/speech (JSON in, audio out; Kokoro-FastAPI, openedai-speech). Every failure
 * names the server and what it said, in words.
 */

export type SpeechServer = { url: string; model: string; apiKey?: string; timeoutMs?: number; fetch?: typeof fetch };

/** The model asked for when none is set: OpenAI's names, which a server of one model ignores. */
export const DEFAULT_STT_MODEL = 'whisper-1';
export const DEFAULT_TTS_MODEL = 'tts-1';
/** What the speech route asks for: MP3 plays in every browser and every server here writes it. */
export const SPEECH_FORMAT = 'mp3';

function client(server: SpeechServer): { openai: OpenAI; baseURL: string } {
  const bare = server.url.replace(/\/+$/, '');
  const baseURL = /\/v1$/.test(bare) ? bare : `${bare}/v1`;
  return {
    baseURL: bare,
    openai: new OpenAI({
      baseURL,
      apiKey: server.apiKey ?? 'not-needed',
      maxRetries: 0,
      timeout: server.timeoutMs ?? 120_000,
      ...(server.fetch ? { fetch: server.fetch } : {}),
    }),
  };
}

/** A speech server's failure in words: down, loading, or answering with an error. */
export function speechError(err: unknown, what: string, url: string): HearthError {
  if (err instanceof APIUserAbortError || (err instanceof Error && err.name === 'AbortError'))
    return new HearthError('cancelled', `The ${what} call was stopped.`);
  if (err instanceof APIConnectionError) return new HearthError('speech_unreachable', `The ${what} server at ${url} cannot be reached.`);
  if (err instanceof APIError) {
    // OpenAI's {error: {message}}, or FastAPI's {detail} (Kokoro-FastAPI: a string or {error, message, type}).
    const body = (err.error ?? {}) as { message?: string; detail?: string | { message?: string } };
    const said = body.message ?? (typeof body.detail === 'string' ? body.detail : body.detail?.message) ?? '';
    if (err.status === 503)
      return new HearthError('speech_unreachable', `The ${what} server at ${url} is still loading its model${said ? ` (${said})` : ''}.`);
    return new HearthError(
      'speech_error',
      `The ${what} server at ${url} answered with an error (${err.status}${said ? `: ${said}` : ''}).`,
    );
  }
  return new HearthError('speech_error', `The ${what} server at ${url} failed: ${err instanceof Error ? err.message : String(err)}.`);
}

/** The words in a recording. */
export async function transcribe(
  server: SpeechServer,
  audio: { bytes: Uint8Array; name: string; type: string; language?: string },
  signal?: AbortSignal,
): Promise<string> {
  const { openai, baseURL } = client(server);
  try {
    const file = await toFile(audio.bytes, audio.name, { type: audio.type });
    const result = await openai.audio.transcriptions.create(
      { file, model: server.model || DEFAULT_STT_MODEL, ...(audio.language ? { language: audio.language } : {}) },
      { signal },
    );
    return (typeof result === 'string' ? result : result.text).trim();
  } catch (err) {
    throw speechError(err, 'speech-to-text', baseURL);
  }
}

/** The audio of some words, as the server streams it (its body and type). */
export async function synthesize(
  server: SpeechServer & { voice: string; speed: number },
  input: string,
  signal?: AbortSignal,
): Promise<{ body: ReadableStream<Uint8Array>; type: string }> {
  const { openai, baseURL } = client(server);
  let res: Response;
  try {
    res = await openai.audio.speech.create(
      {
        model: server.model || DEFAULT_TTS_MODEL,
        input,
        voice: server.voice || 'alloy',
        response_format: SPEECH_FORMAT,
        ...(server.speed !== 1 ? { speed: server.speed } : {}),
      },
      { signal },
    );
  } catch (err) {
    throw speechError(err, 'text-to-speech', baseURL);
  }
  const type = res.headers.get('content-type') ?? 'audio/mpeg';
  if (!res.body || !/^audio\//i.test(type))
    throw new HearthError('speech_error', `The text-to-speech server at ${baseURL} answered ${type || 'nothing'}, not audio.`);
  return { body: res.body, type };
}

/** Whether a speech server answers at all (any HTTP answer below 500 to GET /v1/models), for /api/health. */
export async function speechServerState(
  server: Pick<SpeechServer, 'url' | 'apiKey' | 'fetch'>,
  timeoutMs = 3000,
): Promise<{ url: string; reachable: boolean; error?: string }> {
  const url = server.url.replace(/\/+$/, '');
  try {
    const res = await (server.fetch ?? fetch)(`${/\/v1$/.test(url) ? url : `${url}/v1`}/models`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: server.apiKey ? { Authorization: `Bearer ${server.apiKey}` } : {},
    });
    await res.body?.cancel().catch(() => undefined);
    if (res.status >= 500) return { url, reachable: false, error: res.status === 503 ? 'still loading' : `HTTP ${res.status}` };
    return { url, reachable: true };
  } catch (err) {
    return { url, reachable: false, error: err instanceof Error ? err.message : String(err) };
  }
}
