import rehypeKatex from 'rehype-katex';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import type { PluggableList } from 'unified';
import { singleDollarMath } from './math';
import { outsideCode } from './outside-code';

/**
 * How Hearth reads Markdown from a model, in one place: the page (components/chat/Markdown.tsx)
 * and the thread's HTML export (lib/shared/markdown/html.ts) use the same plugins, so a message reads
 * the same in both. Model output is untrusted: raw HTML in it is shown as text, never parsed
 * (htmlAsText), the tree is sanitized (no javascript: or data: links), nesting is bounded, and
 * math is set by KaTeX after sanitising (KaTeX builds its own markup and runs none of the TeX:
 * \href and friends stay off).
 */

/** The default schema, with the classes remark-math gives math (and rehype-katex reads). */
export const sanitizeSchema = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    code: [['className', /^language-./, 'math-inline', 'math-display']],
  },
};

/** \( … \) and \[ … \], as models often write TeX, in the $$ form remark-math reads; code is left alone. */
export function latexDelimiters(text: string): string {
  return outsideCode(text, (part) =>
    singleDollarMath(part)
      .replace(/\\\[([\s\S]+?)\\\]/g, (_, m: string) => `\n$$\n${m.trim()}\n$$\n`)
      .replace(/\\\((.+?)\\\)/g, (_, m: string) => `$$${m}$$`),
  );
}

type MdNode = { type: string; value?: string; children?: MdNode[] };

/** How deep blockquotes, lists and emphasis may nest before the rest is shown flat. */
export const MAX_MARKDOWN_DEPTH = 24;

/** Every text below a node, without recursion (the node may be thousands deep). */
function flatText(node: MdNode): string {
  const out: string[] = [];
  const stack: MdNode[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (typeof n.value === 'string') out.push(n.value);
    if (n.children) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return out.join(' ');
}

/**
 * A remark plugin: nesting past MAX_MARKDOWN_DEPTH (2,000 blockquotes, say, which a page the
 * model read can steer it into writing) is shown as the plain text it holds, so rendering never
 * runs out of stack. It walks only down to that depth itself.
 */
export function boundDepth() {
  const walk = (node: MdNode, depth: number) => {
    if (!node.children) return;
    if (depth >= MAX_MARKDOWN_DEPTH) {
      node.children = [{ type: 'text', value: flatText(node) }];
      if (node.type === 'root' || node.type === 'blockquote' || node.type === 'listItem' || node.type === 'list')
        node.children = [{ type: 'paragraph', children: node.children }];
      return;
    }
    for (const child of node.children) walk(child, depth + 1);
  };
  return (tree: MdNode) => walk(tree, 0);
}

/**
 * A remark plugin: raw HTML in the markdown becomes literal text. react-markdown would drop it
 * silently, and a user asking for HTML written outside a code block would lose what the model wrote.
 */
export function htmlAsText() {
  const walk = (node: MdNode) => {
    if (node.type === 'html') node.type = 'text';
    node.children?.forEach(walk);
  };
  return (tree: MdNode) => walk(tree);
}

export const remarkPlugins: PluggableList = [boundDepth, remarkGfm, [remarkMath, { singleDollarTextMath: false }], htmlAsText];
export const rehypePlugins: PluggableList = [
  [rehypeSanitize, sanitizeSchema],
  [rehypeKatex, { throwOnError: false, strict: 'ignore', trust: false, errorColor: 'var(--katex-error)' }],
];
