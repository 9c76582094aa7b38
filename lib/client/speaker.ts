import { sentences, speakable } from '@/lib/shared/words/speech';

/**
 * Reading an answer aloud: its words (lib/shared/words/speech.ts) cut into sentences, each one's
 * audio asked for while the one before it plays, so the first sound comes after one sentence's
 * synthesis and the gaps are no longer than the next one's. Without a speech server the browser's
 * own voice says the rest. One reading at a time: a new one, or stop, ends the last at once.
 */

export type SpeakerDeps = {
  /** The audio of one sentence, or 'no-server' when Hearth has no text-to-speech server. */
  synthesize(text: string, signal: AbortSignal): Promise<Blob | 'no-server'>;
  /** Plays it to its end (or until the signal aborts). */
  play(audio: Blob, signal: AbortSignal): Promise<void>;
  /** The browser's own voice, when it has one. */
  say?(text: string, signal: AbortSignal): Promise<void>;
};

export type Speaker = {
  /** Reads some Markdown aloud; resolves when it is said, stopped, or failed (`onError` hears why). */
  read(markdown: string, onError?: (err: unknown) => void): Promise<void>;
  stop(): void;
};

export function createSpeaker(deps: SpeakerDeps): Speaker {
  let current: AbortController | null = null;
  const stop = () => {
    current?.abort();
    current = null;
  };
  return {
    stop,
    async read(markdown, onError) {
      stop();
      const control = new AbortController();
      current = control;
      const { signal } = control;
      const list = sentences(speakable(markdown));
      let browser = false;
      /** One sentence's audio asked for ahead; its failure is heard when it is awaited, not before. */
      const ask = (text: string) => {
        const audio = deps.synthesize(text, signal);
        audio.catch(() => undefined);
        return audio;
      };
      let next: Promise<Blob | 'no-server'> | null = list.length ? ask(list[0]) : null;
      try {
        for (let i = 0; i < list.length && !signal.aborted; i++) {
          if (browser) {
            if (!deps.say)
              throw new Error('No voice to read with: set a text-to-speech server in Settings → Voice (this browser has none).');
            await deps.say(list[i], signal);
            continue;
          }
          const audio = await next!;
          next = i + 1 < list.length ? ask(list[i + 1]) : null;
          if (signal.aborted) break;
          if (audio === 'no-server') {
            browser = true;
            // The browser says this sentence and the rest; what was asked ahead is dropped.
            i--;
            continue;
          }
          await deps.play(audio, signal);
        }
      } catch (err) {
        if (!signal.aborted) onError?.(err);
      } finally {
        if (current === control) current = null;
      }
    },
  };
}
