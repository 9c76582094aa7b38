import { outsideCode } from '@/lib/shared/markdown/outside-code';

/**
 * An answer's citations: the passages search_documents gave in its turn are numbered [1],
 * [2]…; each such number in the answer becomes a link that opens the passage in the viewer
 * (/knowledge/:collection/files/:file, its lines highlighted). A number no passage has stays
 * as written, and so does anything in code.
 */

export type Citation = { href: string; title: string; file: string };

type PassageRef = { n?: unknown; collection_id?: unknown; file_id?: unknown; lines?: unknown; file?: unknown; place?: unknown };

/** The passages of a turn's search_documents results by number; a later search's [n] wins over an earlier one's. */
export function citationsOf(calls: { name: string; ok?: boolean; result?: unknown }[]): Map<number, Citation> {
  const out = new Map<number, Citation>();
  for (const call of calls) {
    if (call.name !== 'search_documents' || !call.ok) continue;
    const passages = (call.result as { passages?: unknown } | undefined)?.passages;
    if (!Array.isArray(passages)) continue;
    for (const p of passages as PassageRef[]) {
      const lines = Array.isArray(p.lines) ? p.lines : [];
      if (typeof p.n !== 'number' || typeof p.collection_id !== 'string' || typeof p.file_id !== 'string') continue;
      const [from, to] = [Number(lines[0]) || 1, Number(lines[1]) || Number(lines[0]) || 1];
      out.set(p.n, {
        file: typeof p.file === 'string' ? p.file : 'passage',
        href: `/knowledge/${encodeURIComponent(p.collection_id)}/files/${encodeURIComponent(p.file_id)}?from=${from}&to=${to}`,
        title: `${typeof p.file === 'string' ? p.file : 'passage'}${typeof p.place === 'string' ? `, ${p.place}` : ''}`,
      });
    }
  }
  return out;
}

/** The answer's Markdown with each cited [n] made a link (not one already a link, a footnote or in code). */
export function linkCitations(text: string, citations: Map<number, Citation>): string {
  if (citations.size === 0) return text;
  return outsideCode(text, (prose) =>
    prose.replace(/\[(\d{1,3})\](?![(:[])/g, (whole, n: string) => {
      const c = citations.get(Number(n));
      if (!c) return whole;
      // The brackets as entities: "\\[" would read as the start of display math (lib/shared/markdown/pipeline.ts).
      return `[&#91;${n}&#93;](${c.href} "${c.title.replace(/["\\]/g, '')}")`;
    }),
  );
}
