import 'server-only';
import type { ThreadExport } from '@/lib/contract/responses';
import { threadHtml } from './html';
import { threadMarkdown } from './markdown';

/**
 * Everything Hearth exports lives in this folder: a thread as JSON (lossless, importable, every
 * branch), Markdown (markdown.ts) or one self-contained web page (html.ts), the words they share
 * (words.ts), and the whole library as one JSON Lines file (library.ts).
 */

export type ThreadFormat = 'json' | 'md' | 'html';

export type ExportFile = { body: string; contentType: string; filename: string };

/** A thread as a file to download in one of the three formats. */
export function threadFile(
  view: ThreadExport,
  format: ThreadFormat,
  { assistantName, timezone }: { assistantName: string; timezone: string },
): ExportFile {
  const name = (view.title || 'thread').replace(/[^\w.-]+/g, '-').slice(0, 60) || 'thread';
  if (format === 'json') return { body: JSON.stringify(view), contentType: 'application/json; charset=utf-8', filename: `${name}.json` };
  if (format === 'html')
    return { body: threadHtml(view, assistantName, timezone), contentType: 'text/html; charset=utf-8', filename: `${name}.html` };
  return { body: threadMarkdown(view, assistantName, timezone), contentType: 'text/markdown; charset=utf-8', filename: `${name}.md` };
}
