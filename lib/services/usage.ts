import { HearthError } from '@/lib/shared/errors';
import type { Limits } from '@/lib/services/auth/people';
import type { UsageLine, UsageView } from '@/lib/contract/responses';
import type { Hearth, Runtime } from '@/lib/services/runtime';

/**
 * What each person's turns used of the model servers (turns, prompt and generated tokens, time
 * on the server), by day in Hearth's timezone and by model, and the limits the owner sets on
 * it: turns a day, fuel a turn. Each library keeps its own rows (db/queries/usage.ts).
 */

/** A day as YYYY-MM-DD in a timezone (Hearth's, from Settings): the day a limit counts and usage is kept under. */
export function dayIn(timezone: string, ms: number): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
}

/** The first day of a window of `days` days ending today. */
export function firstDay(timezone: string, now: number, days: number): string {
  return dayIn(timezone, now - (days - 1) * 24 * 60 * 60 * 1000);
}

/** Throws when a person has begun as many turns today as the owner allows. */
export function admitTurn(limits: Limits, turnsToday: number, running: number): void {
  if (limits.turnsPerDay === null || turnsToday + running < limits.turnsPerDay) return;
  throw new HearthError(
    'limit_reached',
    `You have used your ${limits.turnsPerDay} ${limits.turnsPerDay === 1 ? 'turn' : 'turns'} for today, the limit this Hearth's owner set for you. More from midnight.`,
    { turnsPerDay: limits.turnsPerDay },
  );
}

/** The fuel a person's turn may burn: the Settings page's budget, or their own limit when it is lower (then said). */
export function fuelFor(limits: Limits, budget: number): { fuel: number; personalFuel?: true } {
  return limits.fuelPerTurn === null || limits.fuelPerTurn >= budget ? { fuel: budget } : { fuel: limits.fuelPerTurn, personalFuel: true };
}

const CSV_COLUMNS = ['person', 'day', 'model', 'turns', 'prompt_tokens', 'generated_tokens', 'model_seconds'] as const;

/** A cell as RFC 4180 wants it, and never a formula to a spreadsheet (a model's name is the server's to choose). */
function cell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Usage as CSV: one line per person, day and model. */
export function usageCsv(lines: UsageLine[]): string {
  const rows = lines.map((l) =>
    [l.username, l.day, l.model, l.turns, l.promptTokens, l.generatedTokens, (l.modelMs / 1000).toFixed(1)].map(cell).join(','),
  );
  return [CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}

/** A person's own usage over the last `days` days, with the limits they have. */
export async function usageOf(rt: Pick<Runtime, 'store' | 'person' | 'auth' | 'hearth'>, days: number, now: number): Promise<UsageView> {
  const from = firstDay(rt.hearth.settings.current().timezone, now, days);
  const lines = (await rt.store.usageSince(from)).map((row) => ({ username: rt.person.username, ...row }));
  return { from, lines, limits: await rt.auth.people.limitsOf(rt.person.id) };
}

/** Everyone's usage over the last `days` days (each library opened to read it), by person, day and model. */
export async function everyonesUsage(hearth: Hearth, days: number, now: number): Promise<UsageView> {
  const from = firstDay(hearth.settings.current().timezone, now, days);
  const listed = await hearth.auth.people.list();
  const everyone = listed.length ? listed.map(({ id, username, role }) => ({ id, username, role })) : [await hearth.auth.owner()];
  const lines = [];
  for (const person of everyone)
    for (const row of await (await hearth.as(person)).store.usageSince(from)) lines.push({ username: person.username, ...row });
  return { from, lines };
}

/** A usage view as a CSV file to download. */
export function usageDownload(view: UsageView, name: string): Response {
  return new Response(usageCsv(view.lines), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="hearth-usage-${name}-from-${view.from}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
