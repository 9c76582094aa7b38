import { REPEAT_NOTE } from './prompts';

/**
 * The repeat ledger: a call with the same tool and the same canonical arguments is answered
 * from here instead of running again. Size-only arguments are dropped (asking again for more
 * results is the same question), keys are sorted and values compared case-insensitively.
 */

/** Arguments that only change how much comes back, not what is asked. */
const SIZE_ARGUMENTS = new Set(['n', 'limit', 'max_chars', 'top', 'days', 'max_results', 'count']);

export function canonicalArguments(raw: string): string {
  try {
    const value = JSON.parse(raw) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const object = value as Record<string, unknown>;
      // An object's keys are distinct, so sorting them needs no tie rule (code-unit order).
      const keys = Object.keys(object)
        .filter((k) => !SIZE_ARGUMENTS.has(k))
        .sort();
      const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);
      return JSON.stringify(Object.fromEntries(keys.map((k) => [k, trimmed(object[k])]))).toLowerCase();
    }
    return JSON.stringify(value).toLowerCase();
  } catch {
    return raw.trim().toLowerCase();
  }
}

export type LedgerEntry = { name: string; ok: boolean; content: string };

export class RepeatLedger {
  private readonly seen = new Map<string, LedgerEntry>();
  repeats = 0;

  key(name: string, rawArgs: string): string {
    return `${name}\u0000${canonicalArguments(rawArgs)}`;
  }

  lookup(name: string, rawArgs: string): LedgerEntry | undefined {
    return this.seen.get(this.key(name, rawArgs));
  }

  remember(name: string, rawArgs: string, entry: LedgerEntry): void {
    this.seen.set(this.key(name, rawArgs), entry);
  }

  /** The tool message for a repeat: the earlier result, with a note not to ask again. */
  repeatMessage(entry: LedgerEntry): string {
    let result: unknown = entry.content;
    try {
      result = JSON.parse(entry.content);
    } catch {
      // keep the raw text
    }
    return JSON.stringify({ repeat: true, note: REPEAT_NOTE, result });
  }
}
