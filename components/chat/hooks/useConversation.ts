'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Conversation, type ConversationPhase, type Heard, type Recording, type VoiceFigures } from '@/lib/client/conversation';
import { createVoiceActivity } from '@/lib/client/voice-activity';

/** How often the microphone's level is read (ms). */
const EVERY_MS = 30;

type Microphone = { stream: MediaStream; audio: AudioContext; timer: ReturnType<typeof setInterval> };

/**
 * Conversation mode in the page (lib/client/conversation.ts): the microphone open with echo
 * cancellation, its level read every few milliseconds for the voice-activity detector, and a
 * recording per turn. `send` sends the words (with the kept recording, for Keep recordings); `interrupt`
 * stops Hearth's voice and its running turn when the person cuts in.
 */
export function useConversation({
  transcribe,
  send,
  interrupt,
  onError,
}: {
  transcribe: (audio: Blob) => Promise<Heard>;
  send: (heard: Heard) => Promise<boolean>;
  interrupt: () => void;
  onError: (message: string) => void;
}) {
  const [phase, setPhase] = useState<ConversationPhase>('off');
  const [level, setLevel] = useState(0);
  const mic = useRef<Microphone | null>(null);
  const deps = useRef({ transcribe, send, interrupt, onError });
  deps.current = { transcribe, send, interrupt, onError };

  const conversation = useMemo(
    () =>
      new Conversation({
        record(): Recording {
          const stream = mic.current?.stream;
          if (!stream) return { stop: () => Promise.reject(new Error('The microphone is closed.')) };
          const recorder = new MediaRecorder(stream);
          const parts: Blob[] = [];
          recorder.ondataavailable = (e) => parts.push(e.data);
          recorder.start();
          return {
            stop: () =>
              new Promise<Blob>((resolve) => {
                const done = () => resolve(new Blob(parts, { type: recorder.mimeType || 'audio/webm' }));
                if (recorder.state === 'inactive') return done();
                recorder.onstop = done;
                recorder.stop();
              }),
          };
        },
        transcribe: (audio) => deps.current.transcribe(audio),
        send: (heard) => deps.current.send(heard),
        interrupt: () => deps.current.interrupt(),
        now: () => performance.now(),
        onPhase: setPhase,
        onError: (m) => deps.current.onError(m),
      }),
    [],
  );

  const release = useCallback(() => {
    const m = mic.current;
    mic.current = null;
    if (!m) return;
    clearInterval(m.timer);
    for (const track of m.stream.getTracks()) track.stop();
    void m.audio.close().catch(() => undefined);
  }, []);

  const start = useCallback(async () => {
    if (mic.current) return;
    let stream: MediaStream;
    try {
      // Echo cancellation keeps Hearth's own voice out of what it hears.
      stream = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
      });
    } catch (err) {
      deps.current.onError(`The microphone could not be opened: ${(err as Error).message}`);
      return;
    }
    const audio = new AudioContext();
    const analyser = audio.createAnalyser();
    analyser.fftSize = 1024;
    audio.createMediaStreamSource(stream).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    const vad = createVoiceActivity();
    let shown = 0;
    // A timer, not animation frames: it keeps listening while the tab is in the background.
    const timer = setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      const rms = Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length);
      const meter = Math.min(1, Math.round(rms * 8 * 20) / 20);
      if (meter !== shown) setLevel((shown = meter));
      const event = vad.feed(rms, performance.now(), conversation.strict);
      if (event) conversation.voice(event);
    }, EVERY_MS);
    mic.current = { stream, audio, timer };
    conversation.start();
  }, [conversation]);

  const end = useCallback(() => {
    conversation.stop();
    release();
    setLevel(0);
  }, [conversation, release]);
  useEffect(() => () => end(), [end]);

  return {
    phase,
    level,
    start,
    end,
    /** The page's part: the answer's first token, its first sound, and its end. */
    firstToken: useCallback(() => conversation.firstToken(), [conversation]),
    sounding: useCallback(() => conversation.sounding(), [conversation]),
    answered: useCallback(() => conversation.answered(), [conversation]),
    figures: useCallback((): VoiceFigures | null => (conversation.figures ? { ...conversation.figures } : null), [conversation]),
  };
}
