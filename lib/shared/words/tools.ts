import type { ToolCallView } from '@/lib/contract/responses';

/**
 * What a tool call did, in the words the page and the exports use ("Searched the web for
 * “…”", "Used the notes tool “add note”"), and a tool's name as people read it: never the raw
 * name (query_table, notes__add_note). Shared by the browser and the server, so it imports
 * neither.
 */

type Call = Pick<ToolCallView, 'name' | 'arguments'>;

function args(call: Pick<Call, 'arguments'>): Record<string, unknown> {
  try {
    const v = JSON.parse(call.arguments) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
export const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return cut(url, 60);
  }
}

/** What a tool is doing while it runs, or did once it has finished. */
export function toolDoing(call: Call, done = false): string {
  const a = args(call);
  const say = (running: string, finished: string) => (done ? finished : running);
  const about = (key: string) => (str(a[key]) ? ` for “${cut(str(a[key]), 80)}”` : '');
  switch (call.name) {
    case 'web_search':
      return say('Searching the web', 'Searched the web') + about('query');
    case 'fetch_url':
      return say('Reading a page', 'Read a page') + (str(a.url) ? ` on ${hostOf(str(a.url))}` : '');
    case 'calculator':
      return say('Calculating', 'Calculated') + (str(a.expression) ? ` ${cut(str(a.expression), 80)}` : '');
    case 'now':
      return say('Checking the date and time', 'Checked the date and time');
    case 'remember':
      return say('Updating what it remembers about you', 'Updated what it remembers about you');
    case 'search_conversations':
      return say('Looking through earlier conversations', 'Looked through earlier conversations') + about('query');
    case 'read_attachment':
    case 'grep_attachment':
      return say('Reading the attached file', 'Read the attached file');
    case 'query_table':
      return say('Computing over the attached table', 'Computed over the attached table');
    case 'search_documents':
      return say('Searching your documents', 'Searched your documents') + about('query');
    default: {
      // A tool server's tool is "<server>__<tool>": said as the server's tool, its name in words.
      const cut = call.name.indexOf('__');
      if (cut > 0) return `${say('Using', 'Used')} the ${call.name.slice(0, cut)} tool “${call.name.slice(cut + 2).replace(/_/g, ' ')}”`;
      return `${say('Using', 'Used')} ${call.name.replace(/_/g, ' ')}`;
    }
  }
}

/** Hearth's own tools by a short name people read (the figures under an answer). */
const TOOL_LABELS: Record<string, string> = {
  web_search: 'web search',
  fetch_url: 'page reading',
  calculator: 'calculator',
  now: 'clock',
  remember: 'memory',
  search_conversations: 'earlier conversations',
  read_attachment: 'attached file',
  grep_attachment: 'attached file',
  query_table: 'table',
  search_documents: 'your documents',
};

/** A tool's name as the page says it: "web search", a tool server's "notes: add note", never "notes__add_note". */
export function toolLabel(name: string): string {
  const cut = name.indexOf('__');
  if (cut > 0) return `${name.slice(0, cut)}: ${name.slice(cut + 2).replace(/_/g, ' ')}`;
  return TOOL_LABELS[name] ?? name.replace(/_/g, ' ');
}
