'use client';

import { useCallback, useEffect, useState } from 'react';
import { api } from '@/lib/client/api';
import type { ToolServersView } from '@/lib/contract/responses';

/**
 * Settings → Tool servers: the user's MCP servers from mcp.json, each with its state (connecting,
 * ready with its tools, failed with its error and the last lines of its log), to add (an entry
 * in the mcp.json format other apps use), edit, switch off and remove. Changes are written back
 * to the file at once; secrets come back masked and a masked value left as it is keeps the
 * stored one.
 */

const EXAMPLE = '{"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]}';
const STATE_TEXT = { off: 'switched off', connecting: 'connecting…', ready: 'ready', failed: 'failed' } as const;

type Server = ToolServersView['servers'][number];

export function ToolServers() {
  const [view, setView] = useState<ToolServersView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [entry, setEntry] = useState('');
  const [editing, setEditing] = useState<string | null>(null);
  /** The server whose entry the last save was refused for: its entry box is marked. */
  const [invalidEntry, setInvalidEntry] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setView(await api.toolServers());
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  // A server connects in the background: look again while one is still connecting.
  useEffect(() => {
    if (!view?.servers.some((s) => s.status.state === 'connecting')) return;
    const timer = setTimeout(() => void load(), 1000);
    return () => clearTimeout(timer);
  }, [view, load]);

  const save = async (serverName: string, text: string) => {
    let server: Record<string, unknown>;
    try {
      server = JSON.parse(text) as Record<string, unknown>;
    } catch {
      setError('The entry is not JSON: write it as in mcp.json, for example ' + EXAMPLE);
      setInvalidEntry(serverName);
      return false;
    }
    try {
      setView(await api.putToolServer(serverName, server));
      setError(null);
      setInvalidEntry(null);
      return true;
    } catch (err) {
      setError((err as Error).message);
      setInvalidEntry((err as { field?: unknown }).field === 'server' ? serverName : null);
      return false;
    }
  };
  const decide = async (action: { apply?: string[]; dismiss?: string[] }) => {
    try {
      setView(await api.decideToolServerProposals(action));
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const change = (s: Server, hearth: Record<string, unknown>) =>
    void save(s.name, JSON.stringify({ ...s.config, hearth: { ...s.config.hearth, ...hearth } }));

  return (
    <div className="space-y-3" data-testid="tool-servers">
      {view && (
        <p className="text-xs text-stone-600 dark:text-stone-400">
          Kept in <code>{view.file}</code>, in the mcpServers format Claude Desktop, Cursor and LM Studio use. A server that runs a command
          runs it on this machine; its tools ask before anything that may change something, unless the server marks them read-only.
        </p>
      )}
      {error && (
        <p id="tool-servers-error" role="alert" data-testid="tool-servers-error" className="text-xs text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {view && view.proposals.length > 0 && (
        <div
          role="region"
          aria-label="Tool servers from an imported library file"
          data-testid="tool-server-proposals"
          className="space-y-2 rounded-md border border-amber-400 bg-amber-50 p-2 text-sm dark:border-amber-700 dark:bg-amber-950/40"
        >
          <p>
            A library file you imported carried these tool servers. None runs until you add it; one whose secrets were masked in the file is
            added switched off, for you to type them in.
          </p>
          <ul className="space-y-2">
            {view.proposals.map((p) => (
              <li key={p.name} data-testid="tool-server-proposal" data-name={p.name}>
                <div className="font-medium">{p.name}</div>
                <pre className="max-h-32 overflow-auto whitespace-pre-wrap break-all rounded bg-white/70 p-1 text-xs dark:bg-black/30">
                  {JSON.stringify(p.config, null, 2)}
                </pre>
                <div className="mt-1 flex gap-2">
                  <button
                    type="button"
                    className="rounded border border-stone-400 px-2 py-0.5 text-xs"
                    onClick={() => void decide({ apply: [p.name] })}
                  >
                    Add {p.name}
                  </button>
                  <button
                    type="button"
                    className="rounded border border-stone-400 px-2 py-0.5 text-xs"
                    onClick={() => void decide({ dismiss: [p.name] })}
                  >
                    Dismiss
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </div>
      )}
      {view?.problems.map((p) => (
        <p key={p.name} className="text-xs text-red-700 dark:text-red-300">
          {p.name}: {p.error}
        </p>
      ))}
      <ul className="space-y-2">
        {view?.servers.map((s) => (
          <li
            key={s.name}
            data-testid="tool-server"
            data-name={s.name}
            data-state={s.status.state}
            className="rounded-md border border-stone-300 p-2 text-sm dark:border-stone-700"
          >
            <div className="flex flex-wrap items-center gap-2">
              <strong className="font-medium">{s.name}</strong>
              <span className="text-xs text-stone-600 dark:text-stone-400">
                {s.status.transport} · <span data-testid="tool-server-state">{STATE_TEXT[s.status.state]}</span>
                {s.status.state === 'ready' ? ` · ${s.status.tools.length} tools` : ''}
              </span>
              <span className="ml-auto flex gap-2 text-xs">
                <label
                  className="flex items-center gap-1"
                  title="Its tools find current information: after a deferral the model may be sent to use them"
                >
                  <input
                    type="checkbox"
                    checked={s.config.hearth?.source === true}
                    onChange={(e) => change(s, { source: e.target.checked })}
                  />
                  source of information
                </label>
                <button type="button" className="underline" onClick={() => change(s, { disabled: !s.config.hearth?.disabled })}>
                  {s.config.hearth?.disabled ? 'Switch on' : 'Switch off'}
                </button>
                <button type="button" className="underline" onClick={() => setEditing(editing === s.name ? null : s.name)}>
                  Edit
                </button>
                <button
                  type="button"
                  className="underline"
                  data-testid="tool-server-remove"
                  onClick={() => void api.removeToolServer(s.name).then(load, (err: Error) => setError(err.message))}
                >
                  Remove
                </button>
              </span>
            </div>
            {s.status.error && <p className="mt-1 text-xs text-red-700 dark:text-red-300">{s.status.error}</p>}
            {s.status.log.length > 0 && (
              <details className="mt-1 text-xs">
                <summary className="cursor-pointer">Its log</summary>
                <pre className="max-h-40 overflow-auto whitespace-pre-wrap break-all">{s.status.log.join('\n')}</pre>
              </details>
            )}
            {editing === s.name && (
              <EntryEditor
                initial={JSON.stringify(s.config, null, 2)}
                onSave={async (text) => {
                  if (await save(s.name, text)) setEditing(null);
                }}
              />
            )}
            {s.status.tools.length > 0 && (
              <ul className="mt-1 space-y-0.5 text-xs" data-testid="tool-server-tools">
                {s.status.tools.map((t) => (
                  <li key={t.name} data-testid="tool-server-tool" data-tool={t.modelName} className="flex flex-wrap items-center gap-2">
                    <label className="flex items-center gap-1">
                      <input
                        type="checkbox"
                        checked={t.enabled}
                        onChange={(e) => {
                          const off = new Set(s.config.hearth?.disabledTools ?? []);
                          if (e.target.checked) off.delete(t.name);
                          else off.add(t.name);
                          change(s, { disabledTools: [...off] });
                        }}
                      />
                      <code>{t.name}</code>
                    </label>
                    <select
                      aria-label={`When ${t.name} may run`}
                      value={t.approval}
                      className="bg-transparent"
                      onChange={(e) => {
                        const approval = { ...s.config.hearth?.approval, [t.name]: e.target.value };
                        change(s, { approval });
                      }}
                    >
                      <option value="auto">runs by itself</option>
                      <option value="ask">asks every time</option>
                      <option value="never">never runs</option>
                    </select>
                    {t.readOnly && <span className="text-stone-500">read-only</span>}
                    {t.problem && <span className="text-red-700 dark:text-red-300">left out: {t.problem}</span>}
                    <span className="min-w-0 flex-1 truncate text-stone-600 dark:text-stone-400">{t.description}</span>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      <form
        className="space-y-1"
        data-testid="tool-server-add"
        onSubmit={(e) => {
          e.preventDefault();
          void save(name.trim(), entry).then((ok) => {
            if (ok) {
              setName('');
              setEntry('');
            }
          });
        }}
      >
        <div className="flex gap-2">
          <input
            aria-label="Name of the new tool server"
            data-testid="tool-server-name"
            placeholder="name, e.g. files"
            value={name}
            onChange={(e) => setName(e.target.value)}
            className="w-40 rounded-md border border-stone-300 bg-transparent px-2 py-1 text-sm dark:border-stone-700"
          />
          <button
            type="submit"
            className="rounded-md border border-stone-300 px-2 py-1 text-sm dark:border-stone-700"
            disabled={!name.trim() || !entry.trim()}
          >
            Add server
          </button>
        </div>
        <textarea
          aria-label="The new server's entry, as in mcp.json"
          aria-invalid={(invalidEntry !== null && invalidEntry === name.trim()) || undefined}
          aria-describedby={invalidEntry !== null && invalidEntry === name.trim() ? 'tool-servers-error' : undefined}
          data-testid="tool-server-entry"
          placeholder={EXAMPLE}
          value={entry}
          onChange={(e) => setEntry(e.target.value)}
          rows={3}
          className="w-full rounded-md border border-stone-300 bg-transparent px-2 py-1 font-mono text-xs dark:border-stone-700 aria-[invalid=true]:border-red-600 aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-600"
        />
      </form>
    </div>
  );
}

function EntryEditor({ initial, onSave }: { initial: string; onSave: (text: string) => Promise<void> }) {
  const [text, setText] = useState(initial);
  return (
    <div className="mt-1 space-y-1">
      <textarea
        aria-label="The server's entry, as in mcp.json"
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={6}
        className="w-full rounded-md border border-stone-300 bg-transparent px-2 py-1 font-mono text-xs dark:border-stone-700"
      />
      <button
        type="button"
        className="rounded-md border border-stone-300 px-2 py-1 text-xs dark:border-stone-700"
        onClick={() => void onSave(text)}
      >
        Save
      </button>
    </div>
  );
}
