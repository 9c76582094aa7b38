import { hasErrorCode, HearthError } from '@/lib/shared/errors';
import { withText } from '@/lib/models/content';
import type { ChatMessage } from '@/lib/models/types';
import { compileAnswer, hasGathered, resultsAsText, type Findings } from './compiled';
import { answerNowNote } from './prompts';
import { stripToolMarkup } from './salvage';
import type { TurnIO } from './turn-io';

/**
 * A round without tools gave nothing usable (only tool markup, only reasoning, or nothing).
 * Ask once more with this turn's results as plain text (no tool-call messages for the
 * template to continue) and a firm note; if that is empty too, the program compiles the
 * answer from what the tools found. Only a turn that found nothing ends in an error.
 */
export async function answerWithoutTools(io: TurnIO, view: ChatMessage[], findings: Findings, maxTokens: number): Promise<string> {
  const { gathered, calculation } = findings;
  io.emit({ type: 'status', stage: 'writing' });
  const note = answerNowNote(resultsAsText(gathered, calculation));
  const at = view.findLastIndex((m) => m.role === 'user');
  const messages = view.map((m, i) =>
    i === at && m.role === 'user' ? { role: 'user' as const, content: withText(m.content, { after: note }) } : m,
  );
  if (at < 0) messages.push({ role: 'user', content: note });
  try {
    const retry = await io.callModel({ messages, maxTokens, extra: { chat_template_kwargs: { enable_thinking: false } } });
    const text = stripToolMarkup(retry.content);
    if (text) return text;
  } catch (err) {
    if (io.signal.aborted || hasErrorCode(err, 'cancelled') || !hasGathered(gathered, calculation)) throw err;
    io.diagnostics.push(`the last answer attempt failed (${(err as Error).message}); compiled from the tool results`);
  }
  if (!hasGathered(gathered, calculation)) throw new HearthError('model_error', 'The model returned an empty answer.');
  io.stats.compiled = true;
  const compiled = compileAnswer(gathered, calculation);
  io.show(compiled);
  return compiled;
}
