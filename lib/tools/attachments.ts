import fs from 'node:fs';
import readline from 'node:readline';
import path from 'node:path';
import { z } from 'zod';
import { runJob } from '@/lib/data/jobs/job';
import { defineTool, ToolError, type AttachmentText, type ToolDeps } from './types';

/**
 * Whole attached files, however large: the context shows a file's beginning; these tools read
 * the rest. read_attachment pages through lines; grep_attachment counts the matching lines
 * exactly and shows the first ones. Patterns are model output, so the search runs in a process
 * of its own that is killed when its time is up or the turn stops it: a pattern that backtracks
 * forever costs at most GREP_TIME_LIMIT_MS and never blocks the server.
 */

/** Lines and characters one read returns at most (about 5,000 tokens). */
const READ_MAX_LINES = 200;
const READ_MAX_CHARS = 20_000;
/** A line longer than this is cut in what the tools return. */
const LINE_MAX_CHARS = 500;
/** Matching lines shown; the count covers them all. */
const GREP_MAX_SHOWN = 20;
/** Long enough for 200 MB of log on a slow disk; a pattern that takes longer is stopped. */
export const GREP_TIME_LIMIT_MS = 30_000;

const idParam = z.string().uuid().describe('the attachment id, as the context shows it');

async function attachment(deps: ToolDeps, id: string): Promise<AttachmentText> {
  const found = await deps.attachmentText?.(id);
  if (!found) throw new ToolError(`there is no file with the id ${id} in this conversation; use an id shown with an attached file`);
  return found;
}

const cut = (line: string) => (line.length > LINE_MAX_CHARS ? `${line.slice(0, LINE_MAX_CHARS)}…` : line);

/** The file's lines, one at a time (without their line ending). */
async function* linesOf(file: AttachmentText, signal: AbortSignal): AsyncGenerator<string> {
  if (!file.path) {
    yield* file.text.split('\n');
    return;
  }
  const input = fs.createReadStream(file.path, { encoding: 'utf8', signal });
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  try {
    let first = true;
    for await (const line of lines) {
      yield first ? line.replace(/^\uFEFF/, '') : line;
      first = false;
    }
  } finally {
    lines.close();
    input.destroy();
  }
}

export const readAttachmentTool = defineTool({
  name: 'read_attachment',
  description:
    'Read lines of a file the user attached, with line numbers, when the context shows only its beginning. ' +
    `At most ${READ_MAX_LINES} lines a call; call again with a later from_line for more.`,
  params: z.object({
    id: idParam,
    from_line: z.number().int().min(1).optional().describe('first line to read, default 1'),
    to_line: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`last line to read, default from_line + ${READ_MAX_LINES - 1}`),
  }),
  cost: 1,
  timeoutMs: 20_000,
  async run({ id, from_line, to_line }, deps, signal) {
    const file = await attachment(deps, id);
    const from = from_line ?? 1;
    if (to_line !== undefined && to_line < from) throw new ToolError('to_line comes before from_line');
    if (from > Math.max(1, file.lines)) throw new ToolError(`the file has ${file.lines} lines; from_line must be at most ${file.lines}`);
    const to = Math.min(to_line ?? Infinity, from + READ_MAX_LINES - 1, Math.max(1, file.lines));
    const out: string[] = [];
    let used = 0;
    let n = 0;
    let last = from - 1;
    for await (const line of linesOf(file, signal)) {
      n++;
      if (n < from) continue;
      if (n > to) break;
      const numbered = `${String(n).padStart(6)}| ${cut(line)}`;
      // A line is cut at LINE_MAX_CHARS, so the first always fits.
      if (used + numbered.length > READ_MAX_CHARS) break;
      out.push(numbered);
      used += numbered.length + 1;
      last = n;
    }
    return {
      name: file.name,
      total_lines: file.lines,
      from_line: from,
      to_line: last,
      text: out.join('\n'),
      ...(last < file.lines
        ? { more: `lines ${last + 1} to ${file.lines} follow: call read_attachment again with from_line ${last + 1}` }
        : {}),
    };
  },
});

/**
 * The search runs as a job (lib/data/jobs/job.ts) in a process of its own, found from the
 * working directory like the other jobs, so the bundler leaves the script as it is.
 */
const GREP_JOB = [process.cwd(), 'lib', 'tools', 'grep-job.mjs'].join(path.sep);
/** The search holds a line at a time and the matches shown: this is room to spare. */
const GREP_MEMORY_MB = 128;

type GrepResult = { count: number; shown: { line: number; text: string; before?: string[]; after?: string[] }[]; lines: number };

export const grepAttachmentTool = defineTool({
  name: 'grep_attachment',
  description:
    'Search all of a file the user attached, however large: the exact number of lines that match, and the first matching lines with their numbers. ' +
    'Use it to count or find things in logs and data. The pattern is plain text (case-insensitive) unless regex is true.',
  params: z.object({
    id: idParam,
    pattern: z.string().min(1).max(500).describe('text to look for in each line, or a regular expression when regex is true'),
    regex: z.boolean().optional().describe('treat the pattern as a JavaScript regular expression'),
    case_sensitive: z.boolean().optional(),
    context_lines: z.number().int().min(0).max(3).optional().describe('lines to show before and after each match, default 0'),
  }),
  cost: 2,
  timeoutMs: GREP_TIME_LIMIT_MS,
  async run({ id, pattern, regex, case_sensitive, context_lines }, deps, signal) {
    const file = await attachment(deps, id);
    if (regex) {
      try {
        new RegExp(pattern, case_sensitive ? 'u' : 'iu');
      } catch (err) {
        throw new ToolError(`the pattern is not a valid regular expression (${(err as Error).message}); fix it or search for plain text`);
      }
    }
    const job = {
      path: file.path,
      // the job reads a file with a path from disk and never looks at text
      text: file.path ? '' : file.text,
      pattern,
      regex: Boolean(regex),
      caseSensitive: Boolean(case_sensitive),
      context: context_lines ?? 0,
      maxShown: GREP_MAX_SHOWN,
      lineMax: LINE_MAX_CHARS,
    };
    const end = await runJob<GrepResult | { error: string }>(GREP_JOB, job, {
      memoryMb: GREP_MEMORY_MB,
      timeMs: GREP_TIME_LIMIT_MS,
      signal,
    });
    if (end.kind === 'stopped' || end.kind === 'late')
      throw new ToolError(
        'the search took too long and was stopped (a pattern that backtracks badly?); use plain text or a simpler pattern',
      );
    if (end.kind === 'failed') throw new ToolError(`the search failed: ${end.message}`);
    if (end.kind === 'exited')
      throw new ToolError(
        end.outOfMemory ? 'the search needed too much memory and was stopped; use a simpler pattern' : `the search failed (${end.how})`,
      );
    if ('error' in end.reply) throw new ToolError(`the search failed: ${end.reply.error}`);
    const result = end.reply;
    return {
      name: file.name,
      pattern,
      total_lines: result.lines,
      matching_lines: result.count,
      ...(result.count > result.shown.length ? { shown: `the first ${result.shown.length} of ${result.count}` } : {}),
      matches: result.shown,
    };
  },
});
