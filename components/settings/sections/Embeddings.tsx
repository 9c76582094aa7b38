'use client';

import { useState } from 'react';
import { api } from '@/lib/client/api';
import { buttonClass, inputClass, LiveCheck, Section, type SettingsForm } from '../form';

/** Settings → Knowledge (embeddings). */
export function EmbeddingsSection({ form }: { form: SettingsForm }) {
  const { draft, set, field } = form;
  const [embeddingsCheck, setEmbeddingsCheck] = useState<{ ok: boolean; text: string } | 'checking' | null>(null);
  return (
    <Section
      title="Knowledge (embeddings)"
      hint="A llama-server started with --embeddings and a small embedding model (bge-small-en-v1.5, nomic-embed-text, embeddinggemma, Qwen3-Embedding-0.6B): knowledge collections then find passages by meaning as well as by their words. Changing the model embeds every collection again in the background."
    >
      <div className="grid gap-3 sm:grid-cols-2">
        {field(
          'embeddingsUrl',
          'Embeddings server',
          <input
            id="setting-embeddingsUrl-input"
            className={inputClass}
            value={draft.embeddingsUrl}
            placeholder="http://127.0.0.1:8081 (empty: search by words)"
            onChange={(e) => set('embeddingsUrl', e.target.value)}
          />,
        )}
        {field(
          'embeddingsModel',
          'Embedding model name',
          <input
            id="setting-embeddingsModel-input"
            className={inputClass}
            value={draft.embeddingsModel}
            placeholder="as the server lists it (empty: its own)"
            onChange={(e) => set('embeddingsModel', e.target.value)}
          />,
        )}
        {field(
          'conversationsByMeaning',
          'Past conversations',
          <label className="flex items-center gap-2 text-sm">
            <input
              id="setting-conversationsByMeaning-input"
              type="checkbox"
              checked={draft.conversationsByMeaning}
              onChange={(e) => set('conversationsByMeaning', e.target.checked, true)}
            />
            Find past conversations by meaning too
          </label>,
          'Every message is embedded in the background, so search (Ctrl+K) finds "that chat about the cabin in Norway" even in other words.',
        )}
      </div>
      <button
        type="button"
        data-testid="check-embeddings"
        className={buttonClass}
        disabled={!draft.embeddingsUrl.trim() || embeddingsCheck === 'checking'}
        onClick={() => {
          setEmbeddingsCheck('checking');
          api
            .checkEmbeddings(draft.embeddingsUrl.trim(), draft.embeddingsModel.trim())
            .then((r) =>
              setEmbeddingsCheck(
                r.ok
                  ? { ok: true, text: `✓ Makes embeddings: ${r.dims} dimensions, ${r.ms} ms for a sentence.` }
                  : { ok: false, text: `✗ ${r.error}` },
              ),
            )
            .catch((err) => setEmbeddingsCheck({ ok: false, text: `✗ ${(err as Error).message}` }));
        }}
      >
        Check
      </button>
      <LiveCheck testId="embeddings-check" check={embeddingsCheck} pending="Checking…" />
    </Section>
  );
}
