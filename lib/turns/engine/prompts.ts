/**
 * Every sentence the engine says to the model, in one place: the steps' instructions and the
 * notes between rounds. The identity block that opens the model's view is the context's
 * (lib/turns/context/identity.ts).
 */

/** The retry after a round without tools gave nothing usable: results as plain text, and a firm note. */
export function answerNowNote(results: string): string {
  const found = results ? `What the tools found in this turn:\n${results}\n\n` : '';
  return `[Hearth] ${found}No more tools can be called. Answer the question above now, in plain words, from what is here and what you know. Do not write tool calls or markup. If something is missing, say what.`;
}

export const LAST_ROUND_NOTE =
  'You have used your tool budget for this turn. Answer now with what you have, and say plainly if something is missing.';

export const TOOLS_OFF_NOTE =
  'Tools are no longer available in this turn: you asked for the same thing again. Answer now with what you have and say plainly what is missing.';

export function researchNudge(query: string | undefined): string {
  const q = query?.replace(/["“”]/g, '').trim();
  if (q) {
    return `That does not answer the question. Search for "${q}" now, and keep going until you have the specifics. Do not offer to look something up and do not ask whether you should: there is nobody to answer you. Answer in the language of the question.`;
  }
  return 'That does not answer the question. Call a tool now and find out. Do not offer to look something up and do not ask whether you should: there is nobody to answer you. Answer in the language of the question.';
}

/** With no research tool, a deferral gets one nudge to answer from knowledge, not to search. */
export const NO_RESEARCH_NUDGE =
  'Web search is not available right now, so nobody can look this up. Answer now from what you know, and say plainly what you could not check. Answer in the language of the question.';

export const REPEAT_NOTE =
  'You already called this tool with these exact arguments in this turn. The result is below and it will not change. Do not call it again: use it, try different arguments, or answer and say what is missing.';

export function exactResultNote(result: string, expression: string): string {
  return `[Hearth] The exact result is ${result} (plan: ${expression}). It was computed by the program, not by you: state this number as the answer.`;
}

/** The answering round's note once the program ran the planned query over an attached table. */
export function tableResultNote(result: string, sql: string, file: string): string {
  return `[Hearth] The exact result, computed by the program from ${file} with ${sql}, is:\n${result}\nIt was computed over every row, not by you: state these figures as the answer.`;
}

export const TABLE_FIGURE_SYSTEM = `Decide whether the user's message asks for a figure computed from the rows of an attached table: a total, a sum, a count, an average, a largest or smallest value, a figure per group (per month, per category), or how much was spent or earned. asks_figure is false when the message asks what the table is about, asks to explain, rewrite or summarise it in words, or asks about something else.`;

export const TABLE_PLAN_SYSTEM = `Write one SQLite SELECT query that computes what the user asks from the attached table below. Use only the tables and columns listed; put a column or table name in double quotes when it has spaces, capitals or other characters; dates are text in the form YYYY-MM-DD (use strftime or substr for months and years); compare text case-insensitively with lower() or LIKE. Return only what answers the question (a single figure, or a few rows per group). Do not compute anything yourself.`;

export const FRESHNESS_SYSTEM = `Decide whether answering the user's question correctly needs information you could not have from training alone, because it changes over time or has happened recently.

needs_fresh is true when the question touches news, current events, prices, markets, scores, odds, fixtures, schedules, opening or closing hours, weather, or what is happening now. It is true whenever the question carries a time word like today, tonight, this weekend, yesterday, this week, right now, currently or latest, even if the subject sounds ordinary.

needs_fresh is false when the answer is a definition, an explanation, how something works, history, code, arithmetic, or a recipe, none of which change.

query is the single web search a person would type to answer it, or "" when needs_fresh is false.

The question may be in any language; judge it as it is written. needs_fresh is true or false whatever the language, and query is written in the language of the question.`;

export const VERDICT_SYSTEM = `You check a draft answer before it reaches the user. Reply "answered" when the draft really answers the question with specifics, and every fact in it comes from the tool results, the earlier conversation, or cannot change (arithmetic, code, a requested opinion, facts about the assistant itself).

Reply "research" when the draft offers to look something up or asks whether it should; says it does not know, has no access, or has nothing to report; states a name, title, date, number, price or event that no tool result supports on a question about something current, local, priced or scheduled; answers only part of the question; or repeats an earlier answer instead of addressing what is new.

query is the single web search that would close the biggest gap, written in the language of the question, or "" when the verdict is "answered".

The question and the draft may be in any language; judge them as they are written. A draft that puts off the answer in any language (Japanese, Russian, Arabic, Hindi and every other) is "research". The verdict is always "answered" or "research", in English, whatever the language of the question.`;

export const ARITHMETIC_SYSTEM = `Decide whether the user's message asks for arithmetic on numbers that are given in the message itself (for example "What is 23 * 47 + 156?" or "how much is 12.5 times 4 minus 7"). is_arithmetic is false for questions that need facts first, unit conversions, or numbers that are not in the message.`;

export const PLAN_SYSTEM = `Write the calculation the user asks for as one arithmetic expression, using only the numbers in the message, + - * / ^ and parentheses. Respect the order the user means: "12.5 times 4 minus 7" is 12.5 * 4 - 7. Do not compute anything yourself.`;

export function verdictInput(args: { question: string; toolResults: string[]; earlierAnswers: string[]; draft: string }): string {
  const parts = [`Question:\n${args.question.slice(0, 2000)}`];
  if (args.earlierAnswers.length) {
    parts.push(`Answers already given earlier in this conversation:\n${args.earlierAnswers.map((a) => `- ${a.slice(0, 600)}`).join('\n')}`);
  }
  parts.push(
    `Tool results in this turn:\n${args.toolResults.length ? args.toolResults.map((r) => r.slice(0, 600)).join('\n') : '(none, no tool was called)'}`,
  );
  parts.push(`Draft answer:\n${args.draft.slice(0, 2000)}`);
  return parts.join('\n\n');
}
