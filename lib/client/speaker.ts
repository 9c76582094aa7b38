import { sentences, settledMarkdown, speakable } from '@/lib/shared/words/speech';

/**
 * Reading an answer aloud: its words (lib/shared/words/speech.ts) cut into sentences, each one's
 * audio asked for while the one before it plays, so the first sound comes after one sentence's
 * synthesis and the gaps are no longer than the next one's. An answer still streaming is followed:
 * each sentence is spoken as soon as it is complete. Without a speech server the browser's own
 * voice says the rest. One reading at a time: a new one, or stop, ends the last at once.
 */

export type SpeakerDeps = {
  /** The audio of one sentence, or 'no-server' when Hearth has no text-to-speech server. */
  synthesize(text: string, signal: AbortSignal): Promise<Blob | 'no-server'>;
  /** Plays it to its end (or until the signal aborts). */
  play(audio: Blob, signal: AbortSignal): Promise<void>;
  /** The browser's own voice, when it has one. */
  say?(text: string, signal: AbortSignal): Promise<void>;
};

/** What a reading tells its caller: why it failed, and when its first sound began (the figures under a spoken answer). */
export type ReadingHooks = { onError?: (err: unknown) => void; onFirstSound?: () => void };

/** An answer followed as it streams. */
export type Following = {
  /** The answer so far (Markdown): its sentences that are complete join the queue. */
  update(markdownSoFar: string): void;
  /** The answer as accepted: the rest of it is spoken; resolves when all is said or it is stopped. */
  finish(markdown: string): Promise<void>;
  /** Drops it at once (the gate set the draft aside, or the person cut in). */
  cancel(): void;
};

export type Speaker = {
  /** Reads some Markdown aloud; resolves when it is said, stopped, or failed (`onError` hears why). */
  read(markdown: string, hooks?: ReadingHooks | ((err: unknown) => void)): Promise<void>;
  /** Follows an answer still streaming, speaking each sentence once it is complete. */
  follow(hooks?: ReadingHooks): Following;
  stop(): void;
};

/** Sentences joined into a queue that a player works through, asking one ahead of the one it plays. */
function reading(deps: SpeakerDeps, signal: AbortSignal, hooks: ReadingHooks) {
  const queue: string[] = [];
  const asked: (Promise<Blob | 'no-server'> | undefined)[] = [];
  let closed = false;
  let wake: (() => void) | null = null;
  /** The sentences whose audio arrived: the one after the last of them may be asked for. */
  let ready = -1;
  let sounded = false;
  const ask = (i: number) => {
    if (asked[i] || i >= queue.length || i > ready + 1) return;
    const audio = deps.synthesize(queue[i], signal);
    // Its failure is heard when it is awaited, not before.
    audio.catch(() => undefined);
    asked[i] = audio;
  };
  const nudge = () => {
    wake?.();
    wake = null;
  };
  signal.addEventListener('abort', nudge, { once: true });
  const sound = () => {
    if (sounded) return;
    sounded = true;
    hooks.onFirstSound?.();
  };
  const played = (async () => {
    let browser = false;
    try {
      for (let i = 0; !signal.aborted; i++) {
        while (i >= queue.length && !closed && !signal.aborted) await new Promise<void>((r) => (wake = r));
        if (i >= queue.length || signal.aborted) break;
        if (browser) {
          if (!deps.say) throw new Error('No voice to read with: set a text-to-speech server in Settings → Voice (this browser has none).');
          sound();
          await deps.say(queue[i], signal);
          continue;
        }
        ask(i);
        const audio = (await asked[i])!;
        ready = i;
        ask(i + 1);
        if (signal.aborted) break;
        if (audio === 'no-server') {
          browser = true;
          // The browser says this sentence and the rest; what was asked ahead is dropped.
          i--;
          continue;
        }
        sound();
        await deps.play(audio, signal);
      }
    } catch (err) {
      if (!signal.aborted) hooks.onError?.(err);
    }
  })();
  return {
    add(list: string[]) {
      for (const s of list) {
        queue.push(s);
        ask(queue.length - 1);
      }
      nudge();
    },
    close() {
      closed = true;
      nudge();
    },
    played,
  };
}

/** The words still to say: what follows those already queued (or, if the settled words changed, from where they part). */
function unsaid(words: string, queued: string): string {
  if (words.startsWith(queued)) return words.slice(queued.length);
  let common = 0;
  while (common < words.length && words[common] === queued[common]) common++;
  // From the start of the word they part in.
  return words.slice(words.lastIndexOf(' ', common - 1) + 1);
}

export function createSpeaker(deps: SpeakerDeps): Speaker {
  let current: AbortController | null = null;
  const stop = () => {
    current?.abort();
    current = null;
  };
  const begin = (hooks: ReadingHooks) => {
    stop();
    const control = new AbortController();
    current = control;
    const r = reading(deps, control.signal, hooks);
    void r.played.finally(() => {
      if (current === control) current = null;
    });
    return { ...r, control };
  };
  return {
    stop,
    read(markdown, hooks) {
      const r = begin(typeof hooks === 'function' ? { onError: hooks } : (hooks ?? {}));
      r.add(sentences(speakable(markdown)));
      r.close();
      return r.played;
    },
    follow(hooks = {}) {
      const r = begin(hooks);
      /** The words queued so far, as one string. */
      let queued = '';
      const take = (markdown: string, final: boolean) => {
        if (r.control.signal.aborted) return;
        const words = speakable(final ? markdown : settledMarkdown(markdown));
        const list = sentences(unsaid(words, queued).trim());
        // A short last sentence ("Yes.") may yet be joined to the next one, as a whole reading would.
        if (!final && list.length && list.at(-1)!.split(' ').length < 3) list.pop();
        if (!list.length) return;
        queued = `${queued} ${list.join(' ')}`.trim();
        r.add(list);
      };
      return {
        update: (markdown) => take(markdown, false),
        finish(markdown) {
          take(markdown, true);
          r.close();
          return r.played;
        },
        cancel() {
          r.control.abort();
          if (current === r.control) current = null;
        },
      };
    },
  };
}
