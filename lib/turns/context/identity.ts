/**
 * The identity block: who the assistant is, who and where the user is, the date to the hour,
 * the user's standing instructions and facts. It comes first in the model's view and is
 * byte-stable within the hour (the time is given to the hour on purpose), so llama-server's
 * prompt cache reuses it. Every other sentence Hearth says to the model is in
 * lib/turns/engine/prompts.ts.
 */

export type IdentityOptions = {
  assistantName: string;
  modelId: string;
  now: number;
  timezone: string;
  location?: string;
  /** What the user is called (the Settings page). */
  userName?: string;
  webSearch: boolean;
  toolNames: string[];
  /** The knowledge collections this conversation searches with search_documents. */
  collections?: string[];
  /** The user's instructions for every conversation (the Settings page). */
  defaultInstructions?: string;
  /** The user's instructions for this conversation. */
  systemPrompt?: string;
  /** What Hearth knows of the user that applies to every question (lib/data/memory/facts.ts, already worded). */
  standingFacts?: string | null;
};

/** Building a formatter costs more than formatting with it (a tenth of a millisecond, every turn): one per timezone. */
const formatters = new Map<string, { day: Intl.DateTimeFormat; hour: Intl.DateTimeFormat }>();
function formattersFor(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = {
      day: new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }),
      hour: new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hour12: true }),
    };
    formatters.set(timeZone, f);
  }
  return f;
}

export function identityPrompt(o: IdentityOptions): string {
  const date = new Date(o.now);
  const { day: dayFormat, hour: hourFormat } = formattersFor(o.timezone);
  const day = dayFormat.format(date);
  const hour = hourFormat.format(date);
  const lines = [
    `You are ${o.assistantName}, an assistant running on the user's own machine: the open-weights model ${o.modelId} served by llama.cpp. You are not ChatGPT, Claude or Gemini.`,
    `Today is ${day}. It is around ${hour} in the user's timezone (${o.timezone}).` +
      (o.location ? ` The user is in ${o.location}; use that for weather, local news and anything nearby.` : '') +
      (o.userName?.trim() ? ` The user's name is ${o.userName.trim()}.` : ''),
    '',
    'How you work:',
    '- Use a tool for anything current, local, priced, scheduled or checkable, instead of answering from memory.',
    '- Never offer to look something up and never ask whether you should: there is nobody to say yes. If a tool can find it, call the tool now.',
    '- If a tool fails, say so plainly and answer with what you have.',
    '- Use the calculator for arithmetic instead of working numbers out yourself.',
    '- Lead with the answer. Every name, date, number and price comes from a tool result, the conversation or the user.',
  ];
  if (!o.webSearch) {
    lines.push(
      '- Web search is off on this machine. Do not promise to search: answer with what you know and say plainly what you could not check.',
    );
  }
  if (o.collections?.length) {
    lines.push(
      `- The user's own documents are in ${o.collections.length === 1 ? 'the knowledge collection' : 'the knowledge collections'} ${o.collections.map((c) => `"${c}"`).join(', ')}. For anything they may cover, call search_documents first, answer from the passages it finds, and cite each passage you use by its number, as [1].`,
    );
  }
  if (o.toolNames.length) lines.push(`Your tools: ${o.toolNames.join(', ')}.`);
  if (o.defaultInstructions?.trim()) lines.push('', "The user's instructions for every conversation:", o.defaultInstructions.trim());
  if (o.systemPrompt?.trim()) lines.push('', "The user's instructions for this conversation:", o.systemPrompt.trim());
  // Last: a fact changes the block from here on, and the instructions above stay cached.
  if (o.standingFacts) lines.push('', o.standingFacts);
  return lines.join('\n');
}
