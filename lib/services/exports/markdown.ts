import type { MessageView, ThreadExport } from '@/lib/contract/responses';
import { outsideCode } from '@/lib/shared/markdown/outside-code';
import { checksInWords, exportTime, toolInWords } from './words';

/**
 * A model's Markdown made safe to open in any viewer, as Hearth's own page shows it: remote
 * images become links (a viewer would load them, telling their site the reader is there), and
 * raw HTML tags are escaped to text. Code, inline and fenced, is left as written.
 */
export function inertMarkdown(text: string): string {
  return outsideCode(text, (part) =>
    part
      .replace(
        /!\[([^\]\n]*)\]\(\s*<?([a-z][a-z0-9+.-]*:[^)\s>]*)>?(?:\s+"[^"\n]*")?\s*\)/gi,
        (_, alt: string, url: string) => `[image: ${alt || url}](${url})`,
      )
      .replace(/<(?=[a-z!/?])/gi, '&lt;'),
  );
}

/** An answer's thinking and tool calls in the order they happened: each call's thinking before it, the last after them all. */
export function inCallOrder(
  m: MessageView,
  thought: (block: MessageView['thinking'][number]) => void,
  call: (c: MessageView['toolCalls'][number]) => void,
): void {
  const thinking = m.thinking ?? [];
  let next = 0;
  m.toolCalls.forEach((c, i) => {
    for (; next < thinking.length && thinking[next].toolCallsBefore <= i; next++) thought(thinking[next]);
    call(c);
  });
  for (; next < thinking.length; next++) thought(thinking[next]);
}

/** Markdown for reading; JSON (the full view) for keeping, lossless. */
export function threadMarkdown(view: ThreadExport, assistantName = 'Assistant', timezone = 'UTC'): string {
  // Everything a person or a model wrote (the title is a model's, the name and instructions a
  // person's or an imported file's) is made inert: no viewer loads or runs anything from it.
  const name = inertMarkdown(assistantName);
  const lines = [
    `# ${inertMarkdown((view.title || 'Untitled thread').replace(/\s+/g, ' '))}`,
    '',
    `Exported from Hearth on ${exportTime(Date.now(), timezone)}.`,
    '',
  ];
  if (view.systemPrompt) lines.push('## Instructions', '', inertMarkdown(view.systemPrompt), '');
  for (const m of view.messages) {
    lines.push(
      `## ${m.role === 'user' ? 'You' : name} (${exportTime(m.createdAt, timezone)})${m.status !== 'complete' ? ` [${m.status}]` : ''}`,
      '',
    );
    // Each call's thinking where it stood among the tool calls, quoted: it is not the answer.
    const thought = (b: MessageView['thinking'][number]) => {
      const figures = [b.ms !== undefined ? `${(b.ms / 1000).toFixed(1)} s` : '', b.tokens ? `${b.tokens} tokens` : '']
        .filter(Boolean)
        .join(', ');
      lines.push(
        `> **Thinking**${figures ? ` (${figures})` : ''}`,
        '>',
        ...inertMarkdown(b.text.trim())
          .split('\n')
          .map((l) => `> ${l}`.trimEnd()),
        '',
      );
    };
    inCallOrder(m, thought, (c) => lines.push(`> ${inertMarkdown(toolInWords(c))}`, ''));
    lines.push(inertMarkdown(m.content), '');
    // The files sent with a message, by name (their contents are in the JSON export's attachments).
    if (m.attachments.length > 0) lines.push(`_Files: ${m.attachments.map((a) => inertMarkdown(a.name)).join(', ')}_`, '');
  }
  const others = view.otherMessages?.length ?? view.messages.filter((m) => m.branch).length;
  if (others > 0) lines.push('---', '', '_This is the branch shown in Hearth; the JSON export has every branch._', '');
  const checks = checksInWords(view.decisions);
  if (checks.length > 0) lines.push('---', '', 'Checks:', '', ...checks.map((c) => `- ${c}`), '');
  return lines.join('\n');
}
