'use client';

import { Mic, Square } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { transcribe } from '@/lib/client/api';
import type { AttachmentInfo } from '@/lib/contract/responses';

/** A press shorter than this is a click (start, then click again to stop); longer is hold-to-talk. */
const HOLD_MS = 400;

type State = { kind: 'idle' } | { kind: 'listening'; level: number } | { kind: 'transcribing' } | { kind: 'failed'; message: string };

/**
 * Speak to type: click to start and again to stop, or hold while speaking. The browser records
 * (MediaRecorder, echo cancellation on), shows that it listens and how loud, and the words the
 * speech-to-text server hears go into the message box to edit or send. Nothing is kept, unless
 * Keep recordings is on: then the recording goes with the message, as an attachment.
 */
export function Microphone({ onText, keep = false }: { onText: (text: string, kept?: AttachmentInfo) => void; keep?: boolean }) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const recording = useRef<{ recorder: MediaRecorder; stream: MediaStream; audio: AudioContext; frame: number } | null>(null);
  const pressedAt = useRef(0);

  const release = () => {
    const r = recording.current;
    if (!r) return;
    cancelAnimationFrame(r.frame);
    for (const track of r.stream.getTracks()) track.stop();
    void r.audio.close().catch(() => undefined);
    recording.current = null;
  };
  useEffect(() => release, []);

  const start = async () => {
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
    } catch (err) {
      setState({ kind: 'failed', message: `The microphone could not be opened: ${(err as Error).message}` });
      return;
    }
    const recorder = new MediaRecorder(stream);
    const parts: Blob[] = [];
    recorder.ondataavailable = (e) => parts.push(e.data);
    recorder.onstop = () => {
      release();
      const audio = new Blob(parts, { type: recorder.mimeType || 'audio/webm' });
      setState({ kind: 'transcribing' });
      transcribe(audio, { keep })
        .then(({ text, attachment }) => {
          if (text) onText(text, attachment);
          setState(text ? { kind: 'idle' } : { kind: 'failed', message: 'Nothing was heard.' });
        })
        .catch((err) => setState({ kind: 'failed', message: (err as Error).message }));
    };
    // How loud: the level of the last few milliseconds, for the meter.
    const audio = new AudioContext();
    const analyser = audio.createAnalyser();
    analyser.fftSize = 512;
    audio.createMediaStreamSource(stream).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    const measure = () => {
      analyser.getFloatTimeDomainData(samples);
      const rms = Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length);
      setState((s) => (s.kind === 'listening' ? { kind: 'listening', level: Math.min(1, rms * 8) } : s));
      if (recording.current) recording.current.frame = requestAnimationFrame(measure);
    };
    recording.current = { recorder, stream, audio, frame: requestAnimationFrame(measure) };
    recorder.start();
    setState({ kind: 'listening', level: 0 });
  };
  const stop = () => {
    const r = recording.current;
    if (r && r.recorder.state !== 'inactive') r.recorder.stop();
  };

  const listening = state.kind === 'listening';
  return (
    <span className="relative inline-flex items-center">
      <button
        type="button"
        data-testid="microphone"
        aria-pressed={listening}
        aria-label={listening ? 'Stop listening' : 'Speak (click, or hold while you speak)'}
        title={listening ? 'Stop listening' : 'Speak: click to start and stop, or hold while you speak'}
        disabled={state.kind === 'transcribing'}
        onPointerDown={() => {
          pressedAt.current = Date.now();
          if (!listening) void start();
        }}
        onPointerUp={() => {
          // Held: letting go stops. A click: the second click stops.
          if (listening || Date.now() - pressedAt.current >= HOLD_MS) stop();
        }}
        onKeyDown={(e) => {
          if (e.key !== 'Enter' && e.key !== ' ') return;
          e.preventDefault();
          if (listening) stop();
          else void start();
        }}
        className={`rounded-lg border px-3 py-2 ${listening ? 'border-red-600 text-red-700 dark:text-red-300' : 'border-stone-300 dark:border-stone-700'}`}
      >
        {listening ? <Square className="h-4 w-4" /> : <Mic className="h-4 w-4" />}
      </button>
      {listening && (
        <span
          data-testid="listening"
          role="status"
          className="absolute -top-7 left-0 whitespace-nowrap rounded bg-red-50 px-2 py-0.5 text-xs text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          Listening…{' '}
          <span aria-hidden className="inline-block h-1.5 w-12 rounded bg-red-200 align-middle dark:bg-red-900">
            <span data-testid="level" className="block h-1.5 rounded bg-red-600" style={{ width: `${Math.round(state.level * 100)}%` }} />
          </span>
        </span>
      )}
      {state.kind === 'transcribing' && (
        <span role="status" className="absolute -top-7 left-0 whitespace-nowrap text-xs text-stone-600 dark:text-stone-400">
          Writing down what you said…
        </span>
      )}
      {state.kind === 'failed' && (
        <span
          role="alert"
          data-testid="microphone-error"
          className="absolute -top-7 left-0 whitespace-nowrap rounded bg-red-50 px-2 py-0.5 text-xs text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {state.message}
        </span>
      )}
    </span>
  );
}
