import { hostileCorpus } from './hostile';
import type { DoubleReply, DoubleRequest } from './llama-double';

/**
 * The double's default behaviour: a deterministic "small model" with the habits Hearth must
 * handle. It defers on questions about anything current (so the gate has work to do),
 * calls a tool when forced, answers from tool results, and answers the decide steps'
 * JSON schemas sensibly with probabilities. Browser tests and `npm run dev:fake` use it.
 */

const CURRENT = /\b(price|prices|weather|latest|news|today|tonight|score|scores|currently|right now)\b/i;

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (p as { text?: string }).text ?? '').join('');
  return '';
}

/** A user message without what Hearth put before the user's words: a context block and attached files. */
export function ownWords(content: string): string {
  return content
    .replace(/^\[Context from Hearth[\s\S]*?\[End of context\]\n\n/, '')
    .replace(/^The user attached \d+ files? to this message[\s\S]*--- (?:end of [^\n]*|[^\n]*left out[^\n]*) ---\n\n/, '');
}

/** The user's own question: the last user message that is not one of the engine's notes. */
function question(req: DoubleRequest): string {
  const users = req.messages.filter((m) => m.role === 'user').map((m) => ownWords(text(m.content)));
  const own = users.filter(
    (u) =>
      !/^(That does not answer|You have used your tool budget|Tools are no longer available|Web search is not available|Answer now|\[Hearth\])/.test(
        u,
      ),
  );
  return (own.at(-1) ?? users.at(-1) ?? '').trim();
}

function section(body: string, name: string): string {
  const m = body.match(new RegExp(`${name}:\\n([\\s\\S]*?)(?:\\n\\n[A-Z][^\\n]*:\\n|$)`));
  return m ? m[1].trim() : '';
}

/**
 * How the double's verdict reads a draft, as a model that reads any language does: a draft that
 * puts the answer off (offers to look it up, asks whether it should, says it has no access or
 * that its knowledge stops, or that it does not know) needs research. The English cues cover the
 * double's own deferrals and the held-out kinds Hearth's classifier was never trained on; the
 * others are the same habits in the classifier's other languages and in ten it never saw. An
 * answer that only ends by offering more is an answer.
 */
export const PUTS_OFF: RegExp[] = [
  /\b(not sure|no idea|cannot say|i'd be guessing|postdates|not in a position to confirm)\b/i,
  /\b(if you'd like|let me check|i'd need to search|don't have access|not able to browse|training data only goes)\b/i,
  /pas accès|voulez-vous que je|je peux chercher/i, // French
  /keine aktuellen informationen|soll ich im internet|keinen zugriff/i, // German
  /no tengo acceso|quieres que busque/i, // Spanish
  /无法获取|无法访问|要我在网上/, // Chinese
  /リアルタイム|確認できません|お調べしましょうか|アクセスできません/, // Japanese
  /실시간|확인할 수 없|찾아볼까요|접근할 수 없/, // Korean
  /нет доступа|не могу проверить|могу поискать|не имею доступа/i, // Russian
  /geen toegang|zal ik het opzoeken|kan dat niet controleren/i, // Dutch
  /nie mam dostępu|mogę to sprawdzić|nie mogę sprawdzić/i, // Polish
  /erişimim yok|kontrol edemem|araştırmamı ister misiniz/i, // Turkish
  /لا أستطيع الوصول|ليس لدي وصول|هل تريد أن أبحث/, // Arabic
  /पहुंच नहीं है|जांच नहीं कर सकता|खोज दूं/, // Hindi
  /không có quyền truy cập|không thể kiểm tra|tôi có thể tìm/i, // Vietnamese
  /tidak memiliki akses|tidak dapat memeriksa|saya bisa mencarikan/i, // Indonesian
];

export const putsOff = (draft: string) => PUTS_OFF.some((re) => re.test(draft.replace(/’/g, "'")));

function decideReply(req: DoubleRequest): DoubleReply {
  const schema = req.schema as { properties?: Record<string, { type?: string; enum?: string[] }> };
  const props = schema.properties ?? {};
  const lastUser = text(req.messages.filter((m) => m.role === 'user').at(-1)?.content);
  const q = section(lastUser, 'Question') || lastUser;
  if ('needs_fresh' in props) {
    const fresh = CURRENT.test(q);
    return {
      content: JSON.stringify({ needs_fresh: fresh, query: fresh ? q.replace(/[?"]/g, '').slice(0, 80) : '' }),
      probs: { key: 'needs_fresh', values: fresh ? { true: 0.93, false: 0.07 } : { true: 0.04, false: 0.96 } },
    };
  }
  if ('verdict' in props) {
    const draft = section(lastUser, 'Draft answer');
    const research = putsOff(draft);
    return {
      content: JSON.stringify({ verdict: research ? 'research' : 'answered', query: research ? q.slice(0, 80) : '' }),
      probs: { key: 'verdict', values: research ? { research: 0.8, answered: 0.2 } : { answered: 0.88, research: 0.12 } },
    };
  }
  if ('is_arithmetic' in props) {
    const yes = /\d[\d.\s]*[-+*/^x×÷][\s(]*\d/.test(q);
    return {
      content: JSON.stringify({ is_arithmetic: yes }),
      probs: { key: 'is_arithmetic', values: yes ? { true: 0.97, false: 0.03 } : { true: 0.02, false: 0.98 } },
    };
  }
  // Program-decided figures over an attached table: a figure word asks for one; the plan sums the first decimal column.
  if ('asks_figure' in props) {
    const message = lastUser.split('The message:\n').at(-1) ?? '';
    const yes = /\b(total|how much|how many|sum|average|count|spent|spend)\b/i.test(message);
    return {
      content: JSON.stringify({ asks_figure: yes }),
      probs: { key: 'asks_figure', values: yes ? { true: 0.95, false: 0.05 } : { true: 0.03, false: 0.97 } },
    };
  }
  if ('sql' in props && 'attachment_id' in props) {
    const system = text(req.messages[0]?.content);
    const column =
      system.match(/columns .*?(\w+|"[^"]+") \(decimal/)?.[1] ?? system.match(/columns .*?(\w+|"[^"]+") \(integer/)?.[1] ?? '*';
    const average = /\baverage\b/i.test(q);
    const counting = /\bhow many\b|\bcount\b/i.test(q);
    const sql = counting ? 'SELECT count(*) FROM data' : `SELECT ${average ? 'avg' : 'sum'}(${column}) FROM data`;
    return { content: JSON.stringify({ attachment_id: props.attachment_id.enum?.[0] ?? '', sql }) };
  }
  if ('expression' in props) {
    const runs =
      q
        .replace(/[x×]/g, '*')
        .replace(/÷/g, '/')
        .match(/[\d.+\-*/^%()\s]+/g) ?? [];
    const expr =
      runs
        .map((r) => r.trim())
        .filter((r) => /\d/.test(r))
        .sort((a, b) => b.length - a.length)[0] ?? '0';
    return { content: JSON.stringify({ expression: expr }) };
  }
  const answer: Record<string, unknown> = {};
  for (const [key, p] of Object.entries(props)) {
    answer[key] = p.enum ? p.enum[0] : p.type === 'boolean' ? true : p.type === 'number' ? 0 : '';
  }
  return { content: JSON.stringify(answer) };
}

/** "The user is vegetarian." said back to the user: "you are vegetarian." */
const lowerFirst = (s: string) =>
  s
    .replace(/^The user's\b/, 'your')
    .replace(/^The user is\b/, 'you are')
    .replace(/^The user\b/, 'you');

/** "remember that I'm vegetarian" as a small model writes the fact: "The user is vegetarian." */
export function thirdPerson(clause: string): string {
  const c = clause.trim().replace(/[.!]+$/, '');
  const told = c
    .replace(/^(I am|I'm)\b/i, 'The user is')
    .replace(/^I\b/, 'The user')
    .replace(/^my\b/i, "The user's");
  return `${told.charAt(0).toUpperCase()}${told.slice(1)}.`;
}

function summariseToolResult(name: string, raw: string, asked = ''): string {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return `The ${name} tool said: ${raw.slice(0, 200)}`;
  }
  const d = data as Record<string, unknown>;
  if (d.repeat) return summariseToolResult(name, JSON.stringify(d.result));
  if (d.error) return `I could not check that: the ${name} tool failed (${String(d.error).slice(0, 160)}).`;
  if (Array.isArray(d.results) && d.results.length > 0) {
    const first = d.results[0] as Record<string, string>;
    if (first.url) return `According to **${first.title}** (${first.url}): ${first.snippet ?? ''}`.trim();
    return `From your earlier conversations: ${String(first.excerpt ?? first.text ?? first.title ?? '').slice(0, 200)}`;
  }
  // A model answering from the user's documents cites the passage it used by its number.
  if (Array.isArray(d.passages)) {
    const first = d.passages[0] as { n?: number; text?: string; file?: string } | undefined;
    if (!first) return 'Your documents do not say.';
    // The sentence of the passage that shares most words with the question (a passage may hold its neighbours too).
    const words = new Set(asked.toLowerCase().match(/\p{L}+/gu) ?? []);
    const shared = (t: string) => (t.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => words.has(w)).length;
    const sentences = String(first.text ?? '')
      .replace(/^#+ .*$/gm, '')
      .split(/(?<=\.)\s+/)
      .map((t) => t.trim())
      .filter(Boolean);
    const best = sentences.reduce((a, b) => (shared(b) > shared(a) ? b : a), sentences[0] ?? '');
    return `${best} [${first.n}]`;
  }
  if (typeof d.remembered === 'string')
    return d.replaced
      ? `Noted: I'll remember that ${lowerFirst(d.remembered)} (instead of: ${String(d.replaced)})`
      : `Noted: I'll remember that ${lowerFirst(d.remembered)}`;
  if (typeof d.forgotten === 'string') return `Done: I've forgotten that ${lowerFirst(d.forgotten)}`;
  if (typeof d.iso === 'string') return `It is ${String(d.local ?? d.iso)} (${String(d.timezone ?? '')}).`;
  if (typeof d.text === 'string') return `The page says: ${d.text.slice(0, 200)}`;
  if (Array.isArray(d.rows) && Array.isArray(d.columns))
    return `From ${String(d.file)}: ${(d.rows as unknown[][])
      .slice(0, 10)
      .map((r) => r.join(' | '))
      .join('; ')} (${String(d.total_rows)} rows).`;
  return `The ${name} tool returned: ${raw.slice(0, 200)}`;
}

/**
 * How the double defers on a current question: several phrasings, as small models vary them,
 * the one for a question fixed by its words, so the gate is tested on more than the easiest.
 */
export const DEFERRAL_PHRASINGS = [
  "I don't have access to real-time data, but I can search for the current information if you'd like.",
  'Let me check the latest figures for you.',
  "I'm not able to browse the internet, so I can't give you today's numbers. Would you like me to look it up?",
  "My training data only goes up to 2023, so I can't tell you what it is right now.",
  "I'd need to search the web for that. Shall I go ahead?",
];

export function deferralFor(question: string): string {
  let h = 0;
  for (const c of question) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return DEFERRAL_PHRASINGS[h % DEFERRAL_PHRASINGS.length];
}

/** An answer with code in two languages, display and inline math, TeX delimiters, and prices (the browser tests render it). */
export const CODE_AND_MATH = [
  'Here is a function in TypeScript:',
  '',
  '```ts',
  'function area(r: number): number {',
  '  return Math.PI * r ** 2;',
  '}',
  '```',
  '',
  'And the same in Python:',
  '',
  '```python',
  'def area(r):',
  '    return 3.14159 * r ** 2',
  '```',
  '',
  'The formula is',
  '',
  '$$',
  'A = \\pi r^2',
  '$$',
  '',
  'so doubling the radius gives $$4A$$, the Fibonacci numbers follow $F_n = F_{n-1} + F_{n-2}$, and \\(E = mc^2\\) is another famous one. A coffee costs $5 and a sandwich $10.',
  '',
  '$$\\href{javascript:alert(1)}{click}$$',
].join('\n');

/** Leading words a title leaves out. */
const TITLE_SKIP = new Set(
  'please can could would you tell me explain what whats is are how do does the a an i my to about give write show'.split(' '),
);

/** A title as a small model writes one: the question's first content words, capitalised. */
export function titleFor(question: string): string {
  const words = question
    .replace(/[^\p{L}\p{N}\s'-]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  let start = 0;
  while (start < words.length - 1 && TITLE_SKIP.has(words[start].toLowerCase())) start++;
  const picked = words.slice(start, start + 5);
  if (picked.length === 0) picked.push('New');
  if (picked.length < 3) picked.push('conversation');
  return picked.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

/** How often each "draw a card" question was answered. */
const draws = new Map<string, number>();

export function persona(req: DoubleRequest): DoubleReply {
  if (req.schema) return decideReply(req);
  if (text(req.messages[0]?.content) === 'You write short titles for conversations.') {
    const asked = text(req.messages.at(-1)?.content).match(/^User: (.*)$/m)?.[1] ?? '';
    return { content: titleFor(asked.replace(/…$/, '')) };
  }
  const q = question(req);
  const last = req.messages.at(-1);
  const toolNames = req.tools.map((t) => t.function.name);

  const exact = req.messages
    .map((m) => text(m.content))
    .join('\n')
    .match(/The exact result is (\S+) \(plan: ([^)]*)\)/);
  if (exact) return { content: `The answer is **${exact[1]}** (computed exactly as ${exact[2]}).` };
  const queried = req.messages
    .map((m) => text(m.content))
    .join('\n')
    .match(/The exact result, computed by the program from (.+?) with ([\s\S]+?), is:\n([\s\S]+?)\nIt was computed/);
  if (queried) {
    const figure = queried[3].split(' = ').at(-1)!.trim();
    return { content: `The total is **${figure}**, computed by Hearth over every row of ${queried[1]}.` };
  }

  if (last?.role === 'tool' || req.messages.some((m) => m.role === 'tool')) {
    const toolMsgs = req.messages.filter((m) => m.role === 'tool');
    const calls = req.messages.flatMap((m) => (m.tool_calls as { function: { name: string } }[] | undefined) ?? []);
    const name = calls.at(-1)?.function.name ?? 'tool';
    const lastResult = text(toolMsgs.at(-1)?.content);
    if (req.toolChoice !== 'required') return { content: summariseToolResult(name, lastResult, q) };
  }

  if (req.toolChoice === 'required' && toolNames.length > 0) {
    const nudge = text(req.messages.filter((m) => m.role === 'user').at(-1)?.content);
    const wanted = nudge.match(/Search for "([^"]+)"/)?.[1] ?? q;
    if (toolNames.includes('web_search')) return { toolCalls: [{ name: 'web_search', arguments: { query: wanted } }] };
    if (/time|date|day/i.test(q) && toolNames.includes('now')) return { toolCalls: [{ name: 'now', arguments: {} }] };
    if (toolNames.includes('search_conversations')) return { toolCalls: [{ name: 'search_conversations', arguments: { query: wanted } }] };
    return { toolCalls: [{ name: toolNames[0], arguments: {} }] };
  }

  // A meal asked for: as a model with memory would, it heeds the diet the system block says the user keeps.
  if (/\b(recipe|dinner|lunch|meal)\b/i.test(q)) {
    const known = text(req.messages[0]?.content)
      .split('\n')
      .filter((l) => l.startsWith('- ') && /vegetarian|vegan|allergic/i.test(l))
      .map((l) =>
        lowerFirst(
          l
            .slice(2)
            .replace(/\.$/, '')
            .replace(/^(I am|I'm)\b/i, 'you are')
            .replace(/^My\b/, 'your'),
        ),
      );
    return known.length
      ? {
          content: `Since ${known.join(' and ')}, try a chickpea and spinach curry: onion, garlic, cumin, tomatoes, chickpeas, spinach, 25 minutes.`,
        }
      : { content: 'Try a chicken and spinach curry: onion, garlic, cumin, tomatoes, chicken, spinach, 30 minutes.' };
  }
  const remember = q.match(/^(?:please )?remember (?:that )?(.+)$/i);
  if (remember && toolNames.includes('remember')) {
    return { toolCalls: [{ name: 'remember', arguments: { action: 'add', fact: thirdPerson(remember[1]) } }] };
  }
  const forget = q.match(/^(?:please )?forget (?:that )?(.+)$/i);
  if (forget && toolNames.includes('remember')) {
    return { toolCalls: [{ name: 'remember', arguments: { action: 'forget', fact: thirdPerson(forget[1]) } }] };
  }
  if (/\bwhat time\b|\bwhat day\b/i.test(q) && toolNames.includes('now')) {
    return { toolCalls: [{ name: 'now', arguments: {} }] };
  }
  if (/\b(earlier|before|last time)\b.*\b(talk|said|discuss|conversation)/i.test(q) && toolNames.includes('search_conversations')) {
    const topic = q.match(/about ([\w\s-]+)/i)?.[1]?.trim() ?? q;
    return { toolCalls: [{ name: 'search_conversations', arguments: { query: topic } }] };
  }
  const lastUser = text(req.messages.filter((m) => m.role === 'user').at(-1)?.content);
  if (/^Web search is not available/.test(lastUser)) {
    return {
      content: 'Web search is off here, so I could not check this. From what I know it changes often; treat this as a rough guide.',
    };
  }
  if (CURRENT.test(q) && toolNames.length > 0) return { content: deferralFor(q) };
  if (CURRENT.test(q)) {
    return {
      content: 'Web search is off here, so I cannot check this. From what I know, it changes often; please treat this as a rough guide.',
    };
  }
  // Who it is and who the user is, as the identity block says (the Settings page changes both).
  const system = text(req.messages.find((m) => m.role === 'system')?.content);
  if (/^what is your name\??$/i.test(q.trim())) return { content: `My name is ${system.match(/^You are ([^,]+),/)?.[1] ?? 'unknown'}.` };
  if (/^what is my name\??$/i.test(q.trim())) {
    const name = system.match(/The user's name is ([^.]+)\./)?.[1];
    return { content: name ? `Your name is ${name}.` : 'You have not told me your name.' };
  }
  // A model samples: asked the same again (a regenerated answer), it says something else.
  if (/\bdraw a card\b/i.test(q)) {
    const n = (draws.get(q) ?? 0) + 1;
    draws.set(q, n);
    return { content: `Card number ${n} for "${q.slice(0, 80)}".` };
  }
  if (/code and math/i.test(q)) return { content: CODE_AND_MATH };
  // What a page the model read can steer it into writing: 2,000 nested blockquotes (4 KB).
  if (/deeply nested quotes/i.test(q)) return { content: `${'> '.repeat(2000)}the bottom of the well` };
  const hostile = q.match(/hostile corpus (http:\/\/\S+)/i);
  if (hostile) return { content: hostileCorpus(hostile[1]) };
  if (/markdown test/i.test(q)) {
    return {
      content:
        '## Result\n\n| fruit | count |\n|---|---|\n| apple | 3 |\n\n~~old~~ **bold** `code`\n\n<script>window.__hearthPwned = true</script>\n\nText with <img src=x onerror="window.__hearthPwned = true"> an image.\n\n[click](javascript:window.__hearthPwned=true)\n\n```ts\nconst x: number = 1;\n```',
    };
  }
  const everything = req.messages.map((m) => text(m.content)).join('\n');
  const file = [...everything.matchAll(/--- (.+?) \([^)]*\) ---\n([^\n]*)/g)].at(-1);
  if (file && /\b(file|attached|document|pdf)\b/i.test(q)) {
    return { content: `I read your file **${file[1]}**. It begins: "${file[2].slice(0, 120)}"` };
  }
  // The user's documents, when the conversation has a knowledge collection: searched first, as the system block asks.
  if (toolNames.includes('search_documents') && !req.messages.some((m) => m.role === 'tool') && /\?$/.test(q.trim())) {
    return { toolCalls: [{ name: 'search_documents', arguments: { query: q } }] };
  }
  // The user's notes tool server (e2e/mcp/notes-server.mjs), when Hearth offers its tools: the
  // first round calls it (what came back is answered by the rule for tool results above).
  const note = q.match(/^add a note: (.+)$/i);
  if (note && req.tools.some((t) => t.function.name === 'notes__add_note') && !req.messages.some((m) => m.role === 'tool')) {
    return { toolCalls: [{ name: 'notes__add_note', arguments: { text: note[1] } }] };
  }
  // A thinking model's reply, slow enough to watch the thinking stream (about 3 s) before the answer.
  if (/think it through/i.test(q)) {
    return {
      reasoning: `The user wants me to think it through. ${Array.from({ length: 50 }, (_, i) => `step${i}`).join(' ')}. So the answer is 42.`,
      content: 'After thinking it through: the answer is 42.',
      tokenDelayMs: 40,
    };
  }
  // Spoken in conversation mode: sentences that stream for about 4 s, so the first is said before the last is written.
  if (/tell me about the lighthouse/i.test(q)) {
    return {
      content:
        'The lighthouse stands on the northern cape. It was built of granite in eighteen fifty four. Its lamp can be seen from twenty miles at sea. Keepers lived there until the light was automated. Today it is a small museum about the coast.',
      tokenDelayMs: 80,
    };
  }
  // Long enough (30 s) that a test can do other things while it streams, then stop it.
  if (/very slowly/i.test(q)) {
    return { content: Array.from({ length: 600 }, (_, i) => `word${i}`).join(' '), tokenDelayMs: 50 };
  }
  if (/slowly/i.test(q)) {
    return { content: Array.from({ length: 120 }, (_, i) => `word${i}`).join(' '), tokenDelayMs: 50 };
  }
  return { content: `Hello! You said: "${q.slice(0, 200)}". I am the test double, answering from what I know.` };
}
