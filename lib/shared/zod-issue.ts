import type { z } from 'zod';

/**
 * A validation failure as a person reads it: "must be at least 100", not zod's "Too small:
 * expected number to be >=100". A schema's own message (a refine's words) is kept as written;
 * zod's defaults are said again in plain words.
 */

type Issue = z.core.$ZodIssue;

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object (a JSON {…})',
  record: 'an object (a JSON {…})',
  null: 'null',
};

/** zod's own wording starts so; anything else is a schema's message, kept. */
const ZOD_DEFAULT = /^(Invalid|Too (small|big)|Unrecognized|Expected)/;

function sizeWords(origin: string, bound: number | bigint, inclusive: boolean, least: boolean): string {
  const n = Number(bound);
  if (origin === 'string') {
    if (least && n <= 1) return 'must not be empty';
    return `must be ${least ? 'at least' : 'at most'} ${n} character${n === 1 ? '' : 's'}`;
  }
  if (origin === 'array' || origin === 'set') return `must have ${least ? 'at least' : 'at most'} ${n} item${n === 1 ? '' : 's'}`;
  if (!inclusive) return `must be ${least ? 'more' : 'less'} than ${n}`;
  return `must be ${least ? 'at least' : 'at most'} ${n}`;
}

/** What is wrong with the value, without where it is. */
export function issueInWords(issue: Issue): string {
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      if (/received undefined$/.test(issue.message)) return 'is missing';
      return `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'too_small':
      return sizeWords(issue.origin, issue.minimum, issue.inclusive ?? true, true);
    case 'too_big':
      return sizeWords(issue.origin, issue.maximum, issue.inclusive ?? true, false);
    case 'invalid_format':
      if (issue.format === 'url') return 'must be a web address such as http://127.0.0.1:8080/v1';
      return issue.format === 'regex' ? 'is not in the expected form' : `must be a valid ${issue.format}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `has ${issue.keys.length === 1 ? 'a field' : 'fields'} Hearth does not know: ${issue.keys.join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return 'is not valid here';
  }
}

/** Where the failure is, as a dotted path ("modelServers.0.url"); empty for the value itself. */
export const issuePath = (issue: Issue): string => issue.path.map(String).join('.');
