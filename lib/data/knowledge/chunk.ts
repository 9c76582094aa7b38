/**
 * Cutting a document's text into passages for search: along its structure (a Markdown
 * heading starts a section, a blank line ends a paragraph or a block of code, a PDF's page
 * ends with a form feed), a few hundred tokens each with a small overlap, each keeping its
 * 1-based line range in the text and its page. Sized for embedding models: llama-server
 * embeds an input in one physical batch (512 tokens by default), and MAX_CHARS stays under it
 * for ordinary prose (about four characters a token).
 */

export type Chunk = { text: string; page: number | null; lineStart: number; lineEnd: number };

/** A passage grows to about this many characters (about 250 tokens)… */
export const TARGET_CHARS = 1000;
/** …and never past this. */
export const MAX_CHARS = 1500;
/** The end of a passage that begins the next one too, when the cut falls inside a section. */
export const OVERLAP_CHARS = 200;

type Line = { text: string; no: number; page: number | null };
type Block = { lines: Line[]; heading: boolean; chars: number };

const HEADING = /^#{1,6}\s+\S/;

/** The text's lines with their numbers and pages (a form feed begins a new page). */
function linesOf(text: string, paged: boolean): Line[] {
  let page = paged ? 1 : null;
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((raw, i) => {
      let line = raw;
      if (paged && line.includes('\f')) {
        page! += line.split('\f').length - 1;
        line = line.replace(/\f/g, '');
      }
      return { text: line, no: i + 1, page };
    });
}

/** Paragraphs, headings and code blocks: runs of non-blank lines on one page. */
function blocksOf(lines: Line[]): Block[] {
  const blocks: Block[] = [];
  let current: Block | null = null;
  for (const line of lines) {
    const blank = line.text.trim() === '';
    const heading = HEADING.test(line.text);
    if (blank || heading || (current && current.lines[0].page !== line.page)) {
      if (current) blocks.push(current);
      current = null;
    }
    if (blank) continue;
    current ??= { lines: [], heading, chars: 0 };
    current.lines.push(line);
    current.chars += line.text.length + 1;
    if (heading) {
      blocks.push(current);
      current = null;
    }
  }
  if (current) blocks.push(current);
  return blocks;
}

/** A line too long for one passage, in slices (each keeps the line's number). */
function sliced(line: Line): Line[] {
  if (line.text.length <= MAX_CHARS) return [line];
  const out: Line[] = [];
  for (let i = 0; i < line.text.length; i += TARGET_CHARS) out.push({ ...line, text: line.text.slice(i, i + TARGET_CHARS) });
  return out;
}

/**
 * A passage's text, line for line as in the file: the blank lines inside it kept, and a line
 * sliced for its length joined again, so line k of the passage is line lineStart + k of the file
 * (passages found side by side are joined by their line numbers, lib/data/knowledge/retrieve.ts).
 */
function rendered(lines: Line[]): string {
  const out: string[] = [];
  let previous: number | null = null;
  for (const line of lines) {
    if (line.no === previous) out[out.length - 1] += line.text;
    else {
      for (let no = (previous ?? line.no) + 1; no < line.no; no++) out.push('');
      out.push(line.text);
    }
    previous = line.no;
  }
  return out.join('\n');
}

export function chunkText(text: string, { paged = false }: { paged?: boolean } = {}): Chunk[] {
  const chunks: Chunk[] = [];
  let lines: Line[] = [];
  let chars = 0;
  // Lines added since the last cut: a passage of overlap alone is never kept.
  let fresh = 0;
  const cut = (overlap: boolean) => {
    if (fresh > 0)
      chunks.push({
        text: rendered(lines),
        page: lines[0].page,
        lineStart: lines[0].no,
        lineEnd: lines[lines.length - 1].no,
      });
    // The last lines of the passage (up to OVERLAP_CHARS) begin the next, so a sentence cut at the seam is whole in one of them.
    const kept: Line[] = [];
    let keptChars = 0;
    for (let i = lines.length - 1; overlap && fresh > 0 && i > 0; i--) {
      if (keptChars + lines[i].text.length + 1 > OVERLAP_CHARS) break;
      kept.unshift(lines[i]);
      keptChars += lines[i].text.length + 1;
    }
    lines = kept;
    chars = keptChars;
    fresh = 0;
  };
  // The passage so far is a heading alone: what follows it stays with it.
  let underHeading = false;
  for (const block of blocksOf(linesOf(text, paged))) {
    const newPage = lines.length > 0 && lines[0].page !== block.lines[0].page;
    // A section begins a passage of its own; a new page too, so each passage has one page.
    if (block.heading || newPage) cut(false);
    else if (fresh > 0 && !underHeading && chars + block.chars > TARGET_CHARS) cut(true);
    underHeading = block.heading;
    for (const line of block.lines.flatMap(sliced)) {
      if (chars + line.text.length + 1 > MAX_CHARS) cut(true);
      lines.push(line);
      chars += line.text.length + 1;
      fresh++;
    }
  }
  cut(false);
  return chunks;
}
