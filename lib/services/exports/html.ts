import 'server-only';
import type { MessageView, ThreadExport } from '@/lib/contract/responses';
import { escapeHtml, inlinedKatexCss, markdownToHtml } from '@/lib/shared/markdown/html';
import { checksInWords, exportTime, queryCardHtml, toolInWords } from './words';
import { inCallOrder } from './markdown';

/**
 * A thread as one self-contained web page, for reading offline and keeping: the branch shown,
 * each answer's Markdown rendered as the page renders it (code highlighted, math typeset with
 * KaTeX's fonts inside the file), thinking and tool calls folded away under their answers.
 * Nothing runs and nothing is fetched: there is no script, a Content-Security-Policy in the
 * page forbids both, and images a model linked are shown as their address.
 */
export function threadHtml(view: ThreadExport, assistantName = 'Assistant', timezone = 'UTC'): string {
  const title = view.title || 'Untitled thread';
  const body: string[] = [
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="meta">Exported from Hearth on ${escapeHtml(exportTime(Date.now(), timezone))}.</p>`,
  ];
  if (view.systemPrompt) {
    body.push(`<details class="fold"><summary>Instructions</summary><div class="plain">${escapeHtml(view.systemPrompt)}</div></details>`);
  }
  let math = false;
  for (const m of view.messages) {
    const who = m.role === 'user' ? 'You' : assistantName;
    const status = m.status !== 'complete' ? ` · ${escapeHtml(m.status)}` : '';
    const parts = [
      `<div class="who">${escapeHtml(who)} <time datetime="${new Date(m.createdAt).toISOString()}">${escapeHtml(exportTime(m.createdAt, timezone))}</time>${status}</div>`,
    ];
    if (m.role === 'assistant') {
      parts.push(...folded(m));
      const html = markdownToHtml(m.content);
      math ||= html.includes('class="katex');
      parts.push(`<div class="md">${html}</div>`);
    } else {
      parts.push(`<div class="plain">${escapeHtml(m.content)}</div>`);
      if (m.attachments.length) parts.push(`<div class="files">${m.attachments.map((a) => `📄 ${escapeHtml(a.name)}`).join(' · ')}</div>`);
    }
    body.push(`<article class="${m.role}" id="m-${escapeHtml(m.id)}">${parts.join('\n')}</article>`);
  }
  const checks = checksInWords(view.decisions);
  if (checks.length > 0)
    body.push(`<details class="fold"><summary>Checks</summary><div class="plain">${escapeHtml(checks.join('\n'))}</div></details>`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; font-src data:; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${PAGE_CSS}${math ? inlinedKatexCss() : ''}</style>
</head>
<body>
${body.join('\n')}
</body>
</html>
`;
}

/** An answer's thinking and tool calls, each folded (closed) where it stood among the others. */
function folded(m: MessageView): string[] {
  const out: string[] = [];
  const thought = (b: MessageView['thinking'][number]) => {
    const figures = [b.ms !== undefined ? `${(b.ms / 1000).toFixed(1)} s` : '', b.tokens ? `${b.tokens} tokens` : '']
      .filter(Boolean)
      .join(', ');
    out.push(
      `<details class="fold"><summary>Thinking${figures ? ` (${figures})` : ''}</summary><div class="plain">${escapeHtml(b.text.trim())}</div></details>`,
    );
  };
  inCallOrder(m, thought, (c) => {
    // A computed table shows as the page's card, not as a folded call.
    if (c.name === 'query_table' && c.ok) return void out.push(queryCardHtml(c.result));
    const result = typeof c.result === 'string' ? c.result : JSON.stringify(c.result, null, 2);
    out.push(
      `<details class="fold tool"><summary>${escapeHtml(toolInWords(c))}</summary><pre>${escapeHtml(c.arguments)}</pre><pre>${escapeHtml(result ?? '')}</pre></details>`,
    );
  });
  return out;
}

/** The page's look, light and dark, with the highlight colours of the app. */
const PAGE_CSS = `
:root{color-scheme:light dark;--fg:#1c1917;--muted:#57534e;--bg:#fafaf9;--user:#fef3c7;--border:#d6d3d1;--code:#f5f5f4;
--hl-comment:#57534e;--hl-keyword:#b91c1c;--hl-string:#15803d;--hl-number:#c2410c;--hl-title:#1d4ed8;--hl-variable:#7e22ce;--hl-meta:#be123c}
@media (prefers-color-scheme:dark){:root{--fg:#e7e5e4;--muted:#a8a29e;--bg:#0c0a09;--user:#451a03;--border:#44403c;--code:#1c1917;
--hl-comment:#a8a29e;--hl-keyword:#fca5a5;--hl-string:#86efac;--hl-number:#fdba74;--hl-title:#93c5fd;--hl-variable:#d8b4fe;--hl-meta:#fda4af}}
body{font:16px/1.6 system-ui,sans-serif;color:var(--fg);background:var(--bg);max-width:48rem;margin:2rem auto;padding:0 1rem}
h1{font-size:1.5rem}.meta,.who,.files{color:var(--muted);font-size:.85rem}
article{margin:1.5rem 0}article.user .plain{background:var(--user);border-radius:1rem;padding:.5rem 1rem}
.plain{white-space:pre-wrap;overflow-wrap:anywhere}.md{overflow-wrap:anywhere}
pre{background:var(--code);border:1px solid var(--border);border-radius:.5rem;padding:.75rem;overflow-x:auto;white-space:pre}
code{font-family:ui-monospace,monospace;font-size:.9em}
details.fold{border:1px solid var(--border);border-radius:.5rem;padding:.25rem .75rem;margin:.5rem 0;font-size:.9rem}
summary{cursor:pointer;color:var(--muted)}table{border-collapse:collapse}td,th{border:1px solid var(--border);padding:.25rem .5rem}
.figure{border:1px solid #f59e0b;border-radius:.5rem;padding:.5rem .75rem;margin:.5rem 0;font-size:.9rem}
.figure-head{color:var(--muted);font-size:.75rem;text-transform:uppercase;letter-spacing:.05em}.figure pre{white-space:pre-wrap}
td.num{text-align:right;font-family:ui-monospace,monospace}
blockquote{border-left:3px solid var(--border);margin-left:0;padding-left:1rem;color:var(--muted)}
.hljs-comment,.hljs-quote{color:var(--hl-comment);font-style:italic}
.hljs-keyword,.hljs-selector-tag,.hljs-built_in,.hljs-type,.hljs-literal{color:var(--hl-keyword)}
.hljs-string,.hljs-regexp,.hljs-addition,.hljs-attr{color:var(--hl-string)}
.hljs-number,.hljs-symbol,.hljs-bullet{color:var(--hl-number)}
.hljs-title,.hljs-section{color:var(--hl-title)}.hljs-variable,.hljs-template-variable,.hljs-params{color:var(--hl-variable)}
.hljs-meta,.hljs-deletion{color:var(--hl-meta)}
`;
