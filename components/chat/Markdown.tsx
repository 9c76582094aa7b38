'use client';

import { Component, isValidElement, useEffect, useState, type ReactNode } from 'react';
import ReactMarkdown from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import 'katex/dist/katex.min.css';
import { singleDollarMath } from '@/lib/markdown/math';
import { outsideCode } from '@/lib/markdown/outside-code';
import { CodeBlock } from './CodeBlock';

/**
 * Model output is untrusted: raw HTML in it is shown as text, never parsed (htmlAsText),
 * the tree is sanitized (no javascript: or data: links), links open in a new tab without a
 * referrer, and images do not load by themselves: a page the model read could otherwise make
 * it leak what it knows through an image URL. An image loads only when the user clicks, and
 * then through Hearth (/api/remote-image), never straight from the browser.
 *
 * Code blocks are highlighted (CodeBlock); math between $$ … $$ (or \( … \) and \[ … \]) is set
 * by KaTeX after the tree is sanitised (KaTeX builds its own markup from the TeX and runs none
 * of it: \href and friends stay off). Single dollars are math by pandoc's rule
 * (lib/markdown/math.ts), so "$5 and $10" stays two prices.
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="md break-words">
      <PlainIfItFails text={text}>
        <ReactMarkdown
          remarkPlugins={[boundDepth, remarkGfm, [remarkMath, { singleDollarTextMath: false }], htmlAsText]}
          rehypePlugins={[
            [rehypeSanitize, schema],
            [rehypeKatex, { throwOnError: false, strict: 'ignore', trust: false, errorColor: 'var(--katex-error)' }],
          ]}
          components={{
            pre: ({ children }) => codeBlockOf(children) ?? <pre>{children}</pre>,
            a: ({ href, children }) => (
              <a href={href} target="_blank" rel="noopener noreferrer nofollow">
                {children}
              </a>
            ),
            img: ({ src, alt }) => <ClickToLoadImage src={typeof src === 'string' ? src : ''} alt={alt ?? ''} />,
          }}
        >
          {latexDelimiters(text)}
        </ReactMarkdown>
      </PlainIfItFails>
    </div>
  );
}

/**
 * A message whose Markdown cannot be rendered is shown as its plain text, so the thread still
 * opens (without this, one such message made the whole page "couldn't load", every time).
 */
class PlainIfItFails extends Component<{ text: string; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? (
      <p className="whitespace-pre-wrap" data-testid="markdown-as-text">
        {this.props.text}
      </p>
    ) : (
      this.props.children
    );
  }
}

/** The default schema, with the classes remark-math gives math (and rehype-katex reads). */
const schema = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    code: [['className', /^language-./, 'math-inline', 'math-display']],
  },
};

/** \( … \) and \[ … \], as models often write TeX, in the $$ form remark-math reads; code is left alone. */
function latexDelimiters(text: string): string {
  return outsideCode(text, (part) =>
    singleDollarMath(part)
      .replace(/\\\[([\s\S]+?)\\\]/g, (_, m: string) => `\n$$\n${m.trim()}\n$$\n`)
      .replace(/\\\((.+?)\\\)/g, (_, m: string) => `$$${m}$$`),
  );
}

/** A fenced block's language and text, from the <code> react-markdown puts in its <pre>. */
function codeBlockOf(children: ReactNode): ReactNode | null {
  const child = Array.isArray(children) ? children[0] : children;
  if (!isValidElement(child)) return null;
  const props = child.props as { className?: string; children?: ReactNode };
  if (/\bmath-display\b/.test(props.className ?? '')) return null;
  const language = /\blanguage-([\w+#.-]+)/.exec(props.className ?? '')?.[1] ?? null;
  const code = String(Array.isArray(props.children) ? props.children.join('') : (props.children ?? '')).replace(/\n$/, '');
  return <CodeBlock language={language} code={code} />;
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
function htmlAsText() {
  const walk = (node: MdNode) => {
    if (node.type === 'html') node.type = 'text';
    node.children?.forEach(walk);
  };
  return (tree: MdNode) => walk(tree);
}

function hostOf(src: string): string | null {
  try {
    const u = new URL(src);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.host : null;
  } catch {
    return null;
  }
}

type ImageState = { kind: 'waiting' } | { kind: 'loading' } | { kind: 'shown'; objectUrl: string } | { kind: 'failed'; message: string };

function ClickToLoadImage({ src, alt }: { src: string; alt: string }) {
  const [state, setState] = useState<ImageState>({ kind: 'waiting' });
  const host = hostOf(src);
  useEffect(() => () => void (state.kind === 'shown' && URL.revokeObjectURL(state.objectUrl)), [state]);
  if (!host) return <span className="text-stone-600 dark:text-stone-400">[image{alt ? `: ${alt}` : ''}]</span>;

  async function load() {
    setState({ kind: 'loading' });
    try {
      const res = await fetch(`/api/remote-image?url=${encodeURIComponent(src)}`);
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        setState({ kind: 'failed', message: body?.error?.message ?? `HTTP ${res.status}` });
        return;
      }
      setState({ kind: 'shown', objectUrl: URL.createObjectURL(await res.blob()) });
    } catch {
      setState({ kind: 'failed', message: 'Hearth could not be reached.' });
    }
  }

  if (state.kind === 'shown') {
    // eslint-disable-next-line @next/next/no-img-element -- a blob from /api/remote-image, not an optimisable asset
    return <img src={state.objectUrl} alt={alt} className="max-h-96 max-w-full rounded" />;
  }
  return (
    <span
      className="my-1 inline-flex max-w-full flex-col gap-1 rounded-md border border-dashed border-stone-300 px-2 py-1 text-sm dark:border-stone-700"
      data-testid="blocked-image"
    >
      <button
        type="button"
        className="text-left underline decoration-dotted"
        disabled={state.kind === 'loading'}
        onClick={() => void load()}
        title={src}
        aria-label={`Load the image${alt ? ` "${alt}"` : ''} from ${host}`}
      >
        {state.kind === 'loading' ? 'Loading image…' : `Load image from ${host}`}
        {alt ? ` (${alt})` : ''}
      </button>
      {state.kind === 'failed' && (
        <span role="status" className="text-red-700 dark:text-red-400">
          {state.message}
        </span>
      )}
    </span>
  );
}
