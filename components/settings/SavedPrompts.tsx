'use client';

import { useEffect, useState } from 'react';
import { api } from '@/lib/client/api';
import type { PromptView } from '@/lib/contract/responses';

/**
 * Settings → Saved prompts: each a name typed after "/" in the message box and the text that
 * takes its place. As everywhere on the page, a change is saved when focus leaves the prompt;
 * a refused one (a name taken, an empty text) is said and marked, and its boxes keep what was typed.
 */

const box =
  'w-full rounded-md border border-stone-300 bg-white px-2 py-1 text-sm dark:border-stone-700 dark:bg-stone-900 aria-[invalid=true]:border-red-600';
const button =
  'rounded-md border border-stone-300 px-2 py-1 text-sm hover:bg-white disabled:opacity-50 dark:border-stone-700 dark:hover:bg-stone-800';

function PromptRow({ prompt, onChanged }: { prompt: PromptView; onChanged: (next: PromptView | null) => void }) {
  const [name, setName] = useState(prompt.name);
  const [text, setText] = useState(prompt.text);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    const patch = { ...(name !== prompt.name ? { name } : {}), ...(text !== prompt.text ? { text } : {}) };
    if (Object.keys(patch).length === 0) return;
    try {
      const saved = await api.editPrompt(prompt.id, patch);
      setName(saved.name);
      setError(null);
      onChanged(saved);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <li data-testid="saved-prompt" data-name={prompt.name} className="space-y-1" onBlur={() => void save()}>
      <div className="flex items-center gap-2">
        <span className="text-sm text-stone-600 dark:text-stone-400">/</span>
        <input
          aria-label={`Name of /${prompt.name}`}
          data-testid="prompt-name"
          className={`${box} max-w-[14rem]`}
          value={name}
          aria-invalid={error?.startsWith('name') || undefined}
          onChange={(e) => setName(e.target.value)}
        />
        <button
          type="button"
          className={`${button} ml-auto`}
          aria-label={`Delete /${prompt.name}`}
          data-testid="delete-prompt"
          onClick={() =>
            void api
              .removePrompt(prompt.id)
              .then(() => onChanged(null))
              .catch((err: Error) => setError(err.message))
          }
        >
          Delete
        </button>
      </div>
      <textarea
        aria-label={`Text of /${prompt.name}`}
        data-testid="prompt-text"
        rows={3}
        className={box}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      {error && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </li>
  );
}

export function SavedPrompts() {
  const [prompts, setPrompts] = useState<PromptView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  useEffect(() => {
    api
      .listPrompts()
      .then((r) => setPrompts(r.prompts))
      .catch((err: Error) => setError(err.message));
  }, []);
  const add = async () => {
    try {
      const added = await api.addPrompt({ name, text });
      setPrompts((list) => [...(list ?? []), added].sort((a, b) => a.name.localeCompare(b.name)));
      setName('');
      setText('');
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <div className="space-y-3" data-testid="saved-prompts">
      {prompts && prompts.length === 0 && <p className="text-sm text-stone-600 dark:text-stone-400">None yet.</p>}
      <ul className="space-y-3">
        {prompts?.map((p) => (
          <PromptRow
            key={p.id}
            prompt={p}
            onChanged={(next) => setPrompts((list) => (list ?? []).flatMap((q) => (q.id !== p.id ? [q] : next ? [next] : [])))}
          />
        ))}
      </ul>
      <div className="space-y-1 rounded-md border border-dashed border-stone-300 p-2 dark:border-stone-700">
        <div className="flex items-center gap-2">
          <span className="text-sm text-stone-600 dark:text-stone-400">/</span>
          <input
            aria-label="New prompt's name"
            data-testid="new-prompt-name"
            className={`${box} max-w-[14rem]`}
            placeholder="summarize"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <button
            type="button"
            data-testid="add-prompt"
            className={`${button} ml-auto`}
            disabled={!name.trim() || !text.trim()}
            onClick={() => void add()}
          >
            Add
          </button>
        </div>
        <textarea
          aria-label="New prompt's text"
          data-testid="new-prompt-text"
          rows={3}
          className={box}
          placeholder="Summarize the text below in five bullet points:"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      {error && (
        <p role="alert" data-testid="prompts-error" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
