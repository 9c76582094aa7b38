import fs from 'node:fs';
import path from 'node:path';
import type { Element, ElementContent, Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { common, createLowlight } from 'lowlight';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { latexDelimiters, rehypePlugins, remarkPlugins } from './pipeline';

/**
 * Markdown as static HTML, for a page that must read offline with no script: the page's own
 * plugins (lib/shared/markdown/pipeline.ts: raw HTML as text, sanitised, KaTeX for math), code
 * highlighted by lowlight into class names, and images not loaded (a model's image URL could
 * tell a server the page was opened): each becomes its description and address as text.
 */

const lowlight = createLowlight(common);

/** Code blocks highlighted (lowlight's tree, classes only); images as text. */
function staticPage() {
  return (tree: Root) => {
    visit(tree, 'element', (node: Element, index, parent) => {
      if (node.tagName === 'img' && parent && typeof index === 'number') {
        const alt = String(node.properties?.alt ?? '');
        const src = String(node.properties?.src ?? '');
        parent.children[index] = { type: 'text', value: `[image${alt ? `: ${alt}` : ''}${src ? ` (${src})` : ''}]` };
        return;
      }
      if (node.tagName === 'a') node.properties = { ...node.properties, rel: ['noopener', 'noreferrer', 'nofollow'] };
      if (node.tagName !== 'code' || parent?.type !== 'element' || (parent as Element).tagName !== 'pre') return;
      const classes = (node.properties?.className as string[] | undefined) ?? [];
      const language = classes.find((c) => c.startsWith('language-'))?.slice('language-'.length);
      if (!language || !lowlight.registered(language)) return;
      const code = node.children.map((c) => (c.type === 'text' ? c.value : '')).join('');
      node.children = lowlight.highlight(language, code).children as ElementContent[];
      node.properties = { ...node.properties, className: [...classes, 'hljs'] };
    });
  };
}

const processor = unified().use(remarkParse).use(remarkPlugins).use(remarkRehype).use(rehypePlugins).use(staticPage);

/** One message's Markdown as HTML (a message that cannot be rendered is its text, escaped). */
export function markdownToHtml(text: string): string {
  try {
    const tree = processor.runSync(processor.parse(latexDelimiters(text))) as Root;
    return toHtml(tree);
  } catch {
    return `<p style="white-space:pre-wrap">${escapeHtml(text)}</p>`;
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

let katexCss: string | undefined;
/**
 * KaTeX's stylesheet with its fonts inside it (woff2 as data: URLs, about 300 KB), so typeset
 * math reads the same with no network; read once from the installed package.
 */
export function inlinedKatexCss(): string {
  if (katexCss !== undefined) return katexCss;
  const dist = path.join(process.cwd(), 'node_modules', 'katex', 'dist');
  const css = fs.readFileSync(path.join(dist, 'katex.min.css'), 'utf8');
  katexCss = css.replace(/src:url\(fonts\/([\w-]+)\.woff2\) format\("woff2"\)(,url\([^)]*\) format\("[^"]*"\))*/g, (_, font: string) => {
    const data = fs.readFileSync(path.join(dist, 'fonts', `${font}.woff2`)).toString('base64');
    return `src:url(data:font/woff2;base64,${data}) format("woff2")`;
  });
  return katexCss;
}
