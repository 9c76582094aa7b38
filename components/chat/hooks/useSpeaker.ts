'use client';

import { useCallback, useEffect, useMemo, useState } from 'react';
import { api } from '@/lib/client/api';
import { createSpeaker, type Following } from '@/lib/client/speaker';

/** Plays one sentence's audio to its end; a stop pauses it at once. */
function playAudio(audio: Blob, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(audio);
    const player = new Audio(url);
    const done = () => {
      URL.revokeObjectURL(url);
      resolve();
    };
    player.onended = done;
    player.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('The audio from the text-to-speech server could not be played.'));
    };
    signal.addEventListener(
      'abort',
      () => {
        player.pause();
        done();
      },
      { once: true },
    );
    player.play().catch(reject);
  });
}

/** The browser's own voice (Web Speech), where it has one. */
function browserVoice(rate: () => number) {
  if (typeof window === 'undefined' || !('speechSynthesis' in window)) return undefined;
  return (text: string, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.rate = rate();
      utterance.onend = () => resolve();
      utterance.onerror = () => resolve();
      signal.addEventListener('abort', () => window.speechSynthesis.cancel(), { once: true });
      window.speechSynthesis.speak(utterance);
    });
}

/**
 * Answers read aloud: which one is being read, reading one (a new one stops the last), stopping,
 * whether Settings asks for every answer to be read by itself, and whether a speech-to-text
 * server is set (the microphone is offered only then: the browser's own recognition would send
 * the audio to its maker's servers).
 */
export function useSpeaker(onError: (message: string) => void) {
  const [speaking, setSpeaking] = useState<string | null>(null);
  const [settings, setSettings] = useState({ autoSpeak: false, speed: 1, listens: false, keepRecordings: false });
  useEffect(() => {
    api
      .getSettings()
      .then((v) =>
        setSettings({
          autoSpeak: v.settings.autoSpeak,
          speed: v.settings.speechSpeed,
          listens: Boolean(v.settings.sttUrl),
          keepRecordings: v.settings.keepRecordings,
        }),
      )
      .catch(() => undefined);
  }, []);
  const speaker = useMemo(
    () =>
      createSpeaker({
        synthesize: (text, signal) => api.speech(text, signal),
        play: playAudio,
        say: browserVoice(() => settings.speed),
      }),
    [settings.speed],
  );
  useEffect(() => () => speaker.stop(), [speaker]);
  const read = useCallback(
    (id: string, markdown: string) => {
      setSpeaking(id);
      void speaker
        .read(markdown, (err) => onError(`Reading aloud stopped: ${(err as Error).message}`))
        .then(() => setSpeaking((now) => (now === id ? null : now)));
    },
    [speaker, onError],
  );
  /** Follows an answer as it streams (Settings → Voice → Read answers aloud, or conversation mode): `id` is its message. */
  const follow = useCallback(
    (id: string, onFirstSound?: () => void): Following => {
      setSpeaking(id);
      const following = speaker.follow({
        onError: (err) => onError(`Reading aloud stopped: ${(err as Error).message}`),
        onFirstSound,
      });
      const over = () => setSpeaking((now) => (now === id ? null : now));
      return {
        update: following.update,
        finish: (markdown) => following.finish(markdown).finally(over),
        cancel() {
          following.cancel();
          over();
        },
      };
    },
    [speaker, onError],
  );
  const stop = useCallback(() => {
    speaker.stop();
    setSpeaking(null);
  }, [speaker]);
  /** listens: a speech-to-text server is set, so the composer's microphone can be offered. */
  return {
    speaking,
    read,
    follow,
    stop,
    autoSpeak: settings.autoSpeak,
    listens: settings.listens,
    keepRecordings: settings.keepRecordings,
  };
}
