'use client';

import { Component, isValidElement, useEffect, useState, type ReactNode } from 'react';
import ReactMarkdown from 'react-markdown';
import 'katex/dist/katex.min.css';
import { linkCitations, type Citation } from '@/lib/client/citations';
import { latexDelimiters, rehypePlugins, remarkPlugins } from '@/lib/shared/markdown/pipeline';
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
 * (lib/shared/markdown/math.ts), so "$5 and $10" stays two prices.
 */
export function Markdown({ text, citations }: { text: string; citations?: Map<number, Citation> }) {
  return (
    <div className="md break-words">
      <PlainIfItFails text={text}>
        <ReactMarkdown
          remarkPlugins={remarkPlugins}
          rehypePlugins={rehypePlugins}
          components={{
            pre: ({ children }) => codeBlockOf(children) ?? <pre>{children}</pre>,
            a: ({ href, title, children }) =>
              href?.startsWith('/knowledge/') ? (
                // A citation: the passage opens in Hearth's own viewer, beside the conversation.
                <a href={href} title={title} target="_blank" rel="noopener" data-testid="citation" className="no-underline">
                  <sup>{children}</sup>
                </a>
              ) : (
                <a href={href} target="_blank" rel="noopener noreferrer nofollow">
                  {children}
                </a>
              ),
            img: ({ src, alt }) => <ClickToLoadImage src={typeof src === 'string' ? src : ''} alt={alt ?? ''} />,
          }}
        >
          {latexDelimiters(citations ? linkCitations(text, citations) : text)}
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
