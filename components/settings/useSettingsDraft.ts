'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '@/lib/client/api';
import type { SettingsView } from '@/lib/contract/responses';
import type { Settings } from '@/lib/contract/settings';
import { pendingKeys, SAVED, same, valueToSave } from '@/lib/client/settings-draft';

/**
 * The Settings page's one way of saving: every change is saved as it is made, as the theme and
 * the tool servers always were. A switch, a choice or a button saves at once; a box saves when
 * focus leaves it (or on Enter). A value the server refuses stays on screen, its field marked and
 * named in the status line, and is not sent again until it changes. Edits made while a save is
 * on its way are kept and saved after it.
 */

type Key = keyof Settings;
type Status = { ok: boolean; text: string } | null;

export function useSettingsDraft() {
  const [view, setView] = useState<SettingsView | null>(null);
  const [draft, setDraftState] = useState<Settings | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const [saving, setSaving] = useState(false);
  /** The field the last save was refused for, as its path ("turnFuel", "modelServers.0.url"). */
  const [invalid, setInvalid] = useState<string | null>(null);

  // The save loop reads the latest values, not those of the render that started it.
  const draftRef = useRef<Settings | null>(null);
  const viewRef = useRef<SettingsView | null>(null);
  const inFlight = useRef<Promise<void> | null>(null);
  const again = useRef(false);
  /** The last patch the server refused: it is not sent again until something in it changes. */
  const refused = useRef<string | null>(null);

  const putDraft = useCallback((next: Settings) => {
    draftRef.current = next;
    setDraftState(next);
  }, []);
  const putView = useCallback((next: SettingsView) => {
    viewRef.current = next;
    setView(next);
  }, []);

  /** A view from the server: the page shows it, keeping the edits not yet saved when asked to. */
  const load = useCallback(
    (next: SettingsView, keepEdits = false) => {
      const current = draftRef.current;
      const before = viewRef.current;
      putView(next);
      if (!keepEdits || !current || !before) return putDraft(structuredClone(next.settings));
      const edited = pendingKeys(current, before.settings);
      putDraft({ ...structuredClone(next.settings), ...Object.fromEntries(edited.map((k) => [k, current[k]])) });
    },
    [putDraft, putView],
  );

  const saveOnce = useCallback(async () => {
    const sent = draftRef.current;
    const before = viewRef.current;
    if (!sent || !before) return false;
    const keys = pendingKeys(sent, before.settings);
    if (keys.length === 0) return false;
    const patch = Object.fromEntries(keys.map((k) => [k, valueToSave(k, sent[k])]));
    const signature = JSON.stringify(patch);
    if (signature === refused.current) return false;
    setSaving(true);
    setStatus(null);
    try {
      const next = await api.patchSettings(patch);
      refused.current = null;
      setInvalid(null);
      putView(next);
      // Each sent key takes the server's value unless it was edited again meanwhile; a model
      // server row still being written stays below the saved ones.
      const now = draftRef.current ?? sent;
      const merged = { ...now } as Record<Key, unknown>;
      for (const k of keys) {
        if (!same(valueToSave(k, now[k]), patch[k])) continue;
        merged[k] =
          k === 'modelServers'
            ? [...next.settings.modelServers, ...now.modelServers.filter((s) => !s.url.trim() && !s.model.trim())]
            : next.settings[k];
      }
      putDraft(merged as Settings);
      setStatus({ ok: true, text: SAVED });
      return true;
    } catch (err) {
      refused.current = signature;
      setStatus({ ok: false, text: (err as Error).message });
      const field = (err as { field?: unknown }).field;
      setInvalid(typeof field === 'string' ? field : null);
      return false;
    } finally {
      setSaving(false);
    }
  }, [putDraft, putView]);

  /** Saves what is pending; a call while a save is on its way makes that save run once more. */
  const commit = useCallback((): Promise<void> => {
    if (inFlight.current) {
      again.current = true;
      return inFlight.current;
    }
    const run = async () => {
      do {
        again.current = false;
        await saveOnce();
      } while (again.current);
    };
    inFlight.current = run().finally(() => {
      inFlight.current = null;
    });
    return inFlight.current;
  }, [saveOnce]);

  /** Changes a value; `now` saves it at once (a switch, a choice, a row added or removed). */
  const set = useCallback(
    <K extends Key>(key: K, value: Settings[K], now = false) => {
      const current = draftRef.current;
      if (!current) return;
      putDraft({ ...current, [key]: value });
      setStatus(null);
      setInvalid((field) => (field && (field === key || field.startsWith(`${key}.`)) ? null : field));
      if (now) void commit();
    },
    [putDraft, commit],
  );

  /** Puts a setting back to the environment's value. */
  const reset = useCallback(
    async (key: Key) => {
      try {
        load(await api.patchSettings({ [key]: null }));
        setStatus({ ok: true, text: 'Back to the default. It applies from the next reply.' });
      } catch (err) {
        setStatus({ ok: false, text: (err as Error).message });
      }
    },
    [load],
  );

  /** How many settings on the page are not (yet) in force. */
  const unsavedNow = useCallback(() => {
    const d = draftRef.current;
    const v = viewRef.current;
    return d && v ? pendingKeys(d, v.settings).length : 0;
  }, []);

  useEffect(() => {
    api
      .getSettings()
      .then((v) => load(v))
      .catch((err) => setStatus({ ok: false, text: (err as Error).message }));
  }, [load]);

  const unsaved = view && draft ? pendingKeys(draft, view.settings).length : 0;

  // Closing the tab or reloading with a change not saved (a box still being typed in, a refused value) asks first.
  useEffect(() => {
    if (unsaved === 0) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  return { view, draft, status, setStatus, saving, invalid, unsaved, unsavedNow, load, set, commit, reset };
}
