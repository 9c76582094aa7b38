'use client';

import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import { useEffect, useState, type ReactNode } from 'react';
import { CopyButton } from './CopyButton';

/**
 * A fenced code block: its language, a copy button, and syntax highlighting by lowlight
 * (highlight.js's grammars, as a syntax tree turned into React elements, never HTML strings).
 * The highlighter is loaded after the first paint, on the first code block: until then, and for
 * a language it does not know, the code shows plain.
 */

type Highlighter = { highlight(language: string, code: string): unknown; registered(language: string): boolean };
let loading: Promise<Highlighter> | null = null;
const loadHighlighter = () =>
  (loading ??= import('lowlight').then(({ common, createLowlight }) => createLowlight(common) as unknown as Highlighter));

export function CodeBlock({ language, code }: { language: string | null; code: string }) {
  const [highlighted, setHighlighted] = useState<ReactNode | null>(null);
  useEffect(() => {
    let live = true;
    if (!language) return;
    void loadHighlighter().then((lowlight) => {
      if (!live || !lowlight.registered(language)) return;
      const tree = lowlight.highlight(language, code) as Parameters<typeof toJsxRuntime>[0];
      setHighlighted(toJsxRuntime(tree, { Fragment, jsx, jsxs }));
    });
    return () => {
      live = false;
    };
  }, [language, code]);
  return (
    <div
      data-testid="code-block"
      data-language={language ?? ''}
      className="my-2 overflow-hidden rounded-lg border border-stone-200 dark:border-stone-800"
    >
      <div className="flex items-center justify-between bg-stone-100 px-3 py-1 text-xs text-stone-600 dark:bg-stone-900 dark:text-stone-400">
        <span data-testid="code-language">{language ?? 'text'}</span>
        <CopyButton text={code} label={`Copy the ${language ?? 'text'} code`} testId="copy-code" />
      </div>
      <pre className="hljs m-0 overflow-x-auto px-3 py-2 text-sm">
        <code data-highlighted={highlighted ? 'true' : 'false'}>{highlighted ?? code}</code>
      </pre>
    </div>
  );
}
