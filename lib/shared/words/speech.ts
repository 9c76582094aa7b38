import type { Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/**
 * An answer as words to be spoken: what a person would say reading it aloud. Markdown's marks
 * go, a link is its text, an image its description; a code block, a table or a formula is said
 * in one phrase ("a Python code block") instead of read out; units, currencies, percentages and
 * ranges after a number are said in words. The server's speech route and the browser's own
 * voice both speak through this, so every client says the same. Thinking never reaches it: it
 * is given an answer's text only.
 */

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkMath);

/** The languages a code block may be marked with, as said aloud. */
const LANGUAGES: Record<string, string> = {
  py: 'Python',
  python: 'Python',
  js: 'JavaScript',
  javascript: 'JavaScript',
  jsx: 'JavaScript',
  ts: 'TypeScript',
  typescript: 'TypeScript',
  tsx: 'TypeScript',
  sh: 'shell',
  bash: 'shell',
  shell: 'shell',
  zsh: 'shell',
  console: 'shell',
  ps1: 'PowerShell',
  powershell: 'PowerShell',
  rb: 'Ruby',
  ruby: 'Ruby',
  rs: 'Rust',
  rust: 'Rust',
  go: 'Go',
  c: 'C',
  cpp: 'C++',
  'c++': 'C++',
  cs: 'C#',
  csharp: 'C#',
  java: 'Java',
  kt: 'Kotlin',
  kotlin: 'Kotlin',
  swift: 'Swift',
  php: 'PHP',
  sql: 'SQL',
  html: 'HTML',
  css: 'CSS',
  json: 'JSON',
  yaml: 'YAML',
  yml: 'YAML',
  toml: 'TOML',
  xml: 'XML',
  md: 'Markdown',
  markdown: 'Markdown',
  dockerfile: 'Dockerfile',
  lua: 'Lua',
  r: 'R',
};

function codeBlockPhrase(lang: string | null | undefined): string {
  const name = lang ? (LANGUAGES[lang.toLowerCase()] ?? lang.replace(/[^\w+#.-]/g, '')) : '';
  return name ? `${/^[aeiou]/i.test(name) && !/^u/i.test(name) ? 'an' : 'a'} ${name} code block` : 'a code block';
}

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** A node's words; blocks end as sentences so the voice pauses between them. */
function say(node: Nodes): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
      return node.value;
    case 'break':
      return ' ';
    case 'code':
      return sentence(codeBlockPhrase(node.lang));
    case 'math':
      return sentence('a formula');
    case 'inlineMath':
      return 'a formula';
    case 'table': {
      const rows = Math.max(0, node.children.length - 1);
      return sentence(`a table of ${count(rows, 'row')}`);
    }
    case 'image':
      return node.alt ? `an image: ${node.alt}` : 'an image';
    case 'imageReference':
      return node.alt ? `an image: ${node.alt}` : 'an image';
    case 'html':
      // A tag (a <br>, say) still parts the words either side of it.
      return ' ';
    case 'thematicBreak':
    case 'definition':
    case 'footnoteDefinition':
    case 'yaml':
      return '';
    case 'heading':
    case 'paragraph':
    case 'tableCell':
      return sentence(inline(node.children));
    case 'root':
    case 'blockquote':
    case 'list':
    case 'listItem':
    case 'tableRow':
      return node.children.map(say).join(' ');
    default:
      return 'children' in node ? inline(node.children as Nodes[]) : '';
  }
}

const inline = (children: Nodes[]) => children.map(say).join('');

/** Ends a block's words as a sentence (a heading or a list item without a full stop gets one). */
function sentence(words: string): string {
  const text = words.replace(/\s+/g, ' ').trim();
  if (!text) return '';
  return /[.!?:;…]["')\]]*$/.test(text) ? text : `${text}.`;
}

const UNITS: Record<string, [string, string]> = {
  km: ['kilometre', 'kilometres'],
  m: ['metre', 'metres'],
  cm: ['centimetre', 'centimetres'],
  mm: ['millimetre', 'millimetres'],
  mi: ['mile', 'miles'],
  ft: ['foot', 'feet'],
  kg: ['kilogram', 'kilograms'],
  g: ['gram', 'grams'],
  mg: ['milligram', 'milligrams'],
  lb: ['pound', 'pounds'],
  lbs: ['pound', 'pounds'],
  oz: ['ounce', 'ounces'],
  l: ['litre', 'litres'],
  ml: ['millilitre', 'millilitres'],
  h: ['hour', 'hours'],
  min: ['minute', 'minutes'],
  s: ['second', 'seconds'],
  ms: ['millisecond', 'milliseconds'],
  kb: ['kilobyte', 'kilobytes'],
  mb: ['megabyte', 'megabytes'],
  gb: ['gigabyte', 'gigabytes'],
  tb: ['terabyte', 'terabytes'],
  kib: ['kibibyte', 'kibibytes'],
  mib: ['mebibyte', 'mebibytes'],
  gib: ['gibibyte', 'gibibytes'],
  'km/h': ['kilometre per hour', 'kilometres per hour'],
  mph: ['mile per hour', 'miles per hour'],
  w: ['watt', 'watts'],
  kw: ['kilowatt', 'kilowatts'],
  kwh: ['kilowatt hour', 'kilowatt hours'],
  v: ['volt', 'volts'],
  hz: ['hertz', 'hertz'],
  khz: ['kilohertz', 'kilohertz'],
  mhz: ['megahertz', 'megahertz'],
  ghz: ['gigahertz', 'gigahertz'],
  '°c': ['degree Celsius', 'degrees Celsius'],
  '°f': ['degree Fahrenheit', 'degrees Fahrenheit'],
};
const CURRENCIES: Record<string, [string, string]> = {
  $: ['dollar', 'dollars'],
  '€': ['euro', 'euros'],
  '£': ['pound', 'pounds'],
  '¥': ['yen', 'yen'],
  '₹': ['rupee', 'rupees'],
};
/** The emoji an answer most often carries, said as words; any other is left out. */
const EMOJI: Record<string, string> = {
  '👍': 'thumbs up',
  '👎': 'thumbs down',
  '✅': 'check mark',
  '✔️': 'check mark',
  '✔': 'check mark',
  '❌': 'cross mark',
  '⚠️': 'warning',
  '⚠': 'warning',
  '❤️': 'heart',
  '❤': 'heart',
  '🎉': 'party popper',
  '🙂': 'smiling face',
  '😀': 'grinning face',
  '😊': 'smiling face',
  '😂': 'face with tears of joy',
  '🤔': 'thinking face',
  '🚀': 'rocket',
  '🔥': 'fire',
  '💡': 'light bulb',
  '📌': 'pushpin',
  '⭐': 'star',
};

const NUMBER = String.raw`((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)`;
const unitPattern = new RegExp(
  String.raw`${NUMBER}\s?(${Object.keys(UNITS)
    .sort((a, b) => b.length - a.length)
    .map((u) => u.replace(/[/.]/g, '\\$&'))
    .join('|')})(?![\p{L}\p{N}])`,
  'giu',
);
const isOne = (n: string) => n.replace(/,/g, '') === '1';

/** Numbers with their units, currencies, percentages and ranges, as a person says them. */
function numbersInWords(text: string): string {
  return text
    .replace(new RegExp(String.raw`${NUMBER}\s?(?:–|—|-)\s?${NUMBER}`, 'g'), '$1 to $2')
    .replace(new RegExp(String.raw`([$€£¥₹])\s?${NUMBER}`, 'g'), (_, sign: string, n: string) => {
      const [one, many] = CURRENCIES[sign];
      return `${n} ${isOne(n) ? one : many}`;
    })
    .replace(new RegExp(String.raw`${NUMBER}\s?%`, 'g'), '$1 percent')
    .replace(unitPattern, (_, n: string, unit: string) => {
      const [one, many] = UNITS[unit.toLowerCase()];
      return `${n} ${isOne(n) ? one : many}`;
    });
}

function emojiInWords(text: string): string {
  const said = text.replace(/\p{Extended_Pictographic}\uFE0F?/gu, (e) => (EMOJI[e] ? ` ${EMOJI[e]} ` : ' '));
  return said.replace(/\u200d|\uFE0F/g, '');
}

/** Markdown as the words to speak. */
export function speakable(markdown: string): string {
  const tree = parser.parse(markdown) as Root;
  return (
    emojiInWords(numbersInWords(say(tree)))
      // An emphasis still open where a streaming answer was cut leaves its marks as text.
      .replace(/(?<=\S)(?:\*+|~~)(?=\s|$)|(?<=^|\s)(?:\*+|~~)(?=\S)/g, '')
      .replace(/\s+/g, ' ')
      .replace(/\s+([.,!?;:])/g, '$1')
      .trim()
  );
}

const ABBREVIATIONS = /(?:^|\s)(?:e\.g|i\.e|etc|vs|mr|mrs|ms|dr|prof|st|no|fig|approx|[a-z])\.$/i;

/**
 * The words cut into sentences, each to be spoken as soon as it is complete: a sentence ends at
 * . ! ? or … (and any closing quote) before a space and a capital, a digit or an opening quote,
 * or at the end. "e.g.", a single initial and a decimal point do not end one.
 */
export function sentences(words: string): string[] {
  const out: string[] = [];
  const end = /[.!?…]+["')\]]*(?=\s+["'([]?[\p{Lu}\p{N}]|\s*$)/gu;
  let start = 0;
  for (const m of words.matchAll(end)) {
    const stop = m.index + m[0].length;
    const candidate = words.slice(start, stop);
    if (m[0].startsWith('.') && m[0].length === 1 && ABBREVIATIONS.test(candidate)) continue;
    out.push(candidate.trim());
    start = stop;
  }
  const rest = words.slice(start).trim();
  if (rest) out.push(rest);
  return mergeShort(out.filter(Boolean));
}

/** A sentence of a word or two ("Yes.") goes with the next one, so the voice is not asked for a fragment at a time. */
function mergeShort(list: string[]): string[] {
  const out: string[] = [];
  for (const s of list) {
    const last = out.at(-1);
    if (last !== undefined && last.split(' ').length < 3) out[out.length - 1] = `${last} ${s}`;
    else out.push(s);
  }
  return out;
}

/** A line that opens or closes a fenced code block, or a display formula. */
const FENCE = /^ {0,3}(?:```|~~~)/;
const DISPLAY_MATH = /^\s*\$\$/;
/** A sentence's end in Markdown: . ! ? … with any closing quote, bracket or mark, then a space. */
const SENTENCE_END = /[.!?…]["')\]*_~`]*[ \t\n]/g;
/** A line that is a block of its own (a heading or a list item): its end ends its words. */
const LINE_BLOCK = /^ {0,3}(?:#{1,6}\s|[-*+]\s|\d{1,9}[.)]\s)/;

/**
 * The part of an answer still streaming whose words will not change as more arrives: up to the
 * last complete sentence, heading or list item, never into an open code block, display formula
 * or a table still being written (each is said in one phrase once it is complete). What follows
 * it may still change, so it waits.
 */
export function settledMarkdown(markdown: string): string {
  const lines = markdown.split('\n');
  // The last line is still arriving unless the text ends with a newline.
  let offset = 0;
  let open: 'code' | 'math' | null = null;
  let tableAt = -1;
  let settled = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const complete = i < lines.length - 1;
    const lineEnd = offset + line.length + (complete ? 1 : 0);
    // Nothing of the next line yet: it may still be a row of the table or the fence's end.
    if (!complete && !line) break;
    if (open) {
      if (complete && (open === 'code' ? FENCE.test(line) : line.includes('$$'))) {
        open = null;
        settled = lineEnd;
      }
    } else if (FENCE.test(line)) {
      open = 'code';
    } else if (DISPLAY_MATH.test(line) && !/^\s*\$\$.*\$\$/.test(line)) {
      open = 'math';
    } else if (/^\s*\|/.test(line)) {
      // A table is complete once a line that is not a row follows it.
      if (tableAt < 0) tableAt = offset;
    } else {
      if (tableAt >= 0) settled = offset;
      tableAt = -1;
      if (complete && (!line.trim() || LINE_BLOCK.test(line))) settled = lineEnd;
      else {
        const text = complete ? `${line}\n` : line;
        for (const m of text.matchAll(SENTENCE_END)) settled = Math.max(settled, offset + m.index + m[0].length);
      }
    }
    offset += line.length + 1;
  }
  return markdown.slice(0, settled);
}
