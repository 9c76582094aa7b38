import 'server-only';
import { createHash, randomUUID } from 'node:crypto';
import type { AttachmentInfo } from '@/lib/contract/responses';
import { describeText } from '@/lib/data/files/receive';
import { HearthError } from '@/lib/shared/errors';
import { apiKeyFor } from '@/lib/shared/config';
import { speakable } from '@/lib/shared/words/speech';
import { speechServerState, synthesize, transcribe } from '@/lib/models/speech';
import type { Runtime } from './runtime';

/**
 * Talking to Hearth: a recording becomes words through the speech-to-text server, and an
 * answer's words become audio through the text-to-speech server, both as Settings names them.
 * Audio goes only to those servers and is not kept, unless the person turned on Keep recordings:
 * then a recording they ask to keep becomes an attachment (of kind audio) of the message it
 * sends, its transcript as its text.
 */

/** OpenAI's own limit for one recording; a larger one is refused before any server is asked. */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
/** What one speech request may say (OpenAI's limit for its input): an answer is spoken a few sentences at a time. */
export const MAX_SPOKEN_CHARS = 4096;

/** The container a recording's first bytes show: what browsers record and speech servers read. */
export function audioType(head: Uint8Array): { type: string; ext: string } | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return { type: 'audio/wav', ext: 'wav' };
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return { type: 'audio/webm', ext: 'webm' };
  if (ascii(0, 4) === 'OggS') return { type: 'audio/ogg', ext: 'ogg' };
  if (ascii(0, 4) === 'fLaC') return { type: 'audio/flac', ext: 'flac' };
  if (ascii(4, 8) === 'ftyp') return { type: 'audio/mp4', ext: 'm4a' };
  if (ascii(0, 3) === 'ID3' || (head[0] === 0xff && (head[1] & 0xe0) === 0xe0)) return { type: 'audio/mpeg', ext: 'mp3' };
  return null;
}

function noServer(what: string): HearthError {
  return new HearthError(
    'no_speech_server',
    `No ${what} server is set: add one in Settings → Voice (the page uses the browser's own where it has one).`,
  );
}

/**
 * The words in a recording (a file the browser recorded, or any audio file). `keep`: the person
 * asks for it to be kept; it is, as an attachment for the message they will send, only when
 * Settings → Voice → Keep recordings is on and something was heard.
 */
export async function transcribeRecording(
  rt: Pick<Runtime, 'settings' | 'config' | 'store' | 'files'>,
  recording: { bytes: Uint8Array; language?: string; keep?: boolean },
  signal?: AbortSignal,
  now: () => Date = () => new Date(),
): Promise<{ text: string; attachment?: AttachmentInfo }> {
  const { sttUrl, sttModel, keepRecordings } = rt.settings.current();
  if (!sttUrl) throw noServer('speech-to-text');
  if (recording.bytes.byteLength === 0) throw new HearthError('bad_request', 'file: the recording is empty.');
  const kind = audioType(recording.bytes.subarray(0, 16));
  if (!kind) throw new HearthError('unsupported_type', 'file: this is not audio Hearth can send (WAV, WebM, Ogg, FLAC, MP3 or M4A).');
  const text = await transcribe(
    { url: sttUrl, model: sttModel, apiKey: apiKeyFor(rt.config, sttUrl) },
    { bytes: recording.bytes, name: `recording.${kind.ext}`, type: kind.type, language: recording.language },
    signal,
  );
  if (!recording.keep || !keepRecordings || !text.trim()) return { text };
  return { text, attachment: await keepRecording(rt, { ...kind, bytes: recording.bytes, transcript: text, at: now() }) };
}

/** A recording stored as an attachment (the file store's, by its hash), with its transcript as its text. */
async function keepRecording(
  { store, files }: Pick<Runtime, 'store' | 'files'>,
  { bytes, type, ext, transcript, at }: { bytes: Uint8Array; type: string; ext: string; transcript: string; at: Date },
): Promise<AttachmentInfo> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  files.write(sha256, bytes, 'original', 'audio');
  files.write(sha256, transcript, 'text', 'audio');
  const about = describeText(transcript);
  const stamp = at.toISOString().slice(0, 16).replace('T', ' ').replace(':', '.');
  const row = await store.insertAttachment({
    id: randomUUID(),
    name: `Recording ${stamp}.${ext}`,
    mime: type,
    size: bytes.byteLength,
    sha256,
    text: about.prefix,
    kind: 'audio',
    chars: about.chars,
    lines: about.lines,
    now: at.getTime(),
  });
  return { id: row.id, name: row.name, mime: row.mime, size: row.size, kind: row.kind };
}

/** Some text (Markdown) as spoken audio, streamed as the server makes it. */
export async function speak(
  rt: Pick<Runtime, 'settings' | 'config'>,
  { text, voice }: { text: string; voice?: string },
  signal?: AbortSignal,
): Promise<{ body: ReadableStream<Uint8Array>; type: string }> {
  const words = speakable(text);
  if (!words) throw new HearthError('bad_request', 'text: there are no words in it to speak.');
  if (words.length > MAX_SPOKEN_CHARS)
    throw new HearthError('too_large', `text: ${words.length} characters is too long to speak at once (at most ${MAX_SPOKEN_CHARS}).`);
  const s = rt.settings.current();
  if (!s.ttsUrl) throw noServer('text-to-speech');
  return synthesize(
    { url: s.ttsUrl, model: s.ttsModel, voice: voice || s.ttsVoice, speed: s.speechSpeed, apiKey: apiKeyFor(rt.config, s.ttsUrl) },
    words,
    signal,
  );
}

/** The speech servers as /api/health lists them (null: not set). */
export async function speechHealth(rt: Pick<Runtime, 'settings' | 'config'>) {
  const { sttUrl, ttsUrl } = rt.settings.current();
  const state = (url: string) => (url ? speechServerState({ url, apiKey: apiKeyFor(rt.config, url) }) : Promise.resolve(null));
  const [stt, tts] = await Promise.all([state(sttUrl), state(ttsUrl)]);
  return { stt, tts };
}
