import { z } from 'zod';
import { defineTool, ToolError } from './types';

function validZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The current date and time in an IANA zone (the user's own by default). */
export function describeNow(at: number, timezone: string) {
  const date = new Date(at);
  const local = new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(date);
  return { iso: date.toISOString(), timezone, local };
}

export const nowTool = defineTool({
  name: 'now',
  description:
    "The current date and time. Without arguments it uses the user's own timezone; give an IANA timezone such as " +
    '"Asia/Tokyo" for another place.',
  params: z.object({ timezone: z.string().max(64).optional().describe('an IANA timezone, e.g. Europe/Paris') }),
  cost: 1,
  timeoutMs: 1000,
  async run({ timezone }, deps) {
    const tz = timezone?.trim() || deps.timezone;
    if (!validZone(tz)) throw new ToolError(`"${tz}" is not an IANA timezone; use a name like "America/New_York"`);
    return describeNow(deps.now(), tz);
  },
});
