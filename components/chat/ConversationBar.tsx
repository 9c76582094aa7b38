'use client';

import type { ConversationPhase, VoiceFigures } from '@/lib/client/conversation';

const SAID: Record<Exclude<ConversationPhase, 'off'>, string> = {
  listening: 'Listening: speak when you are ready',
  hearing: 'Hearing you…',
  transcribing: 'Writing down what you said…',
  answering: 'Answering… speak to cut in',
  speaking: 'Speaking… speak to cut in',
};

/** Conversation mode's line above the message box: what Hearth is doing, how loud the microphone hears, and End. */
export function ConversationBar({ phase, level, onEnd }: { phase: ConversationPhase; level: number; onEnd: () => void }) {
  if (phase === 'off') return null;
  return (
    <div
      data-testid="conversation"
      data-phase={phase}
      className="flex items-center gap-3 border-t border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950 dark:border-amber-900 dark:bg-stone-900 dark:text-amber-100"
    >
      <span role="status" data-testid="conversation-phase">
        {SAID[phase]}
      </span>
      <span aria-hidden className="inline-block h-1.5 w-16 rounded bg-amber-200 dark:bg-amber-900">
        <span className="block h-1.5 rounded bg-amber-600" style={{ width: `${Math.round(level * 100)}%` }} />
      </span>
      <button
        type="button"
        data-testid="conversation-end"
        onClick={onEnd}
        className="ml-auto rounded-md border border-amber-400 px-2 py-0.5 dark:border-amber-700"
      >
        End conversation
      </button>
    </div>
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Under a spoken answer: from the end of the person's speech to the transcript, the first token and the first sound. */
export function VoiceFiguresLine({ figures }: { figures: VoiceFigures }) {
  const parts = [`words ${seconds(figures.transcriptMs)}`];
  if (figures.firstTokenMs !== undefined) parts.push(`first token ${seconds(figures.firstTokenMs)}`);
  if (figures.firstSoundMs !== undefined) parts.push(`first sound ${seconds(figures.firstSoundMs)}`);
  return (
    <p data-testid="voice-figures" className="mt-1 text-xs text-stone-500 dark:text-stone-400" title="From the end of your speech">
      From the end of your speech: {parts.join(' · ')}
    </p>
  );
}
