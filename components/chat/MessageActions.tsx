'use client';

import { Pencil, RotateCcw, Square, ThumbsDown, ThumbsUp, Volume2 } from 'lucide-react';
import type { Rating } from '@/lib/contract/responses';
import { useEffect, useRef, useState } from 'react';

/**
 * What can be done with a message once its turn is over: move between its versions
 * ("‹ 2 / 3 ›"), regenerate an answer (or retry one that was cut off), edit a question, delete
 * a message and what follows it (asked once more, inline).
 */

export function VersionSwitcher({
  branch,
  onChoose,
  disabled,
}: {
  branch: { index: number; ids: string[]; models?: (string | null)[] };
  onChoose: (id: string) => void;
  disabled: boolean;
}) {
  const { index, ids } = branch;
  /** An answer's versions say which model wrote each. */
  const by = (i: number) => (branch.models?.[i] ? `, by ${branch.models[i]}` : '');
  return (
    <span data-testid="versions" className="inline-flex items-center gap-1 text-xs text-stone-600 dark:text-stone-400">
      <button
        type="button"
        data-testid="version-previous"
        aria-label={`Previous version${index > 0 ? by(index - 1) : ''}`}
        title={index > 0 ? `Version ${index}${by(index - 1)}` : undefined}
        disabled={disabled || index === 0}
        onClick={() => onChoose(ids[index - 1])}
        className="rounded px-1 disabled:opacity-30"
      >
        ‹
      </button>
      <span data-testid="version-label" aria-live="polite" title={`Version ${index + 1} of ${ids.length}${by(index)}`}>
        {index + 1} / {ids.length}
      </span>
      <button
        type="button"
        data-testid="version-next"
        aria-label={`Next version${index < ids.length - 1 ? by(index + 1) : ''}`}
        title={index < ids.length - 1 ? `Version ${index + 2}${by(index + 1)}` : undefined}
        disabled={disabled || index === ids.length - 1}
        onClick={() => onChoose(ids[index + 1])}
        className="rounded px-1 disabled:opacity-30"
      >
        ›
      </button>
    </span>
  );
}

/** Thumbs on an answer: a press puts them on, a second press takes them back; counted beside the model in the picker. */
function Thumbs({ rating, onRate }: { rating: Rating | null; onRate: (rating: Rating | null) => void }) {
  const thumb = (which: Rating, Icon: typeof ThumbsUp, label: string) => (
    <button
      type="button"
      data-testid={`rate-${which}`}
      aria-label={label}
      aria-pressed={rating === which}
      title={rating === which ? `${label} (press again to take it back)` : label}
      onClick={() => onRate(rating === which ? null : which)}
      className={`${actionClass} ${rating === which ? 'text-amber-800 dark:text-amber-300' : ''}`}
    >
      <Icon className="h-3.5 w-3.5" fill={rating === which ? 'currentColor' : 'none'} />
    </button>
  );
  return (
    <span role="group" aria-label="Rate this answer" className="inline-flex">
      {thumb('up', ThumbsUp, 'Good answer')}
      {thumb('down', ThumbsDown, 'Bad answer')}
    </span>
  );
}

const actionClass =
  'rounded px-1.5 py-0.5 text-xs text-stone-600 hover:bg-stone-100 disabled:opacity-40 dark:text-stone-400 dark:hover:bg-stone-800';

export function MessageActions({
  role,
  branch,
  busy,
  retry,
  onChoose,
  onRegenerate,
  models = [],
  onEdit,
  rating,
  onRate,
  reading,
  onRead,
  onDelete,
}: {
  role: 'user' | 'assistant';
  branch?: { index: number; ids: string[]; models?: (string | null)[] } | null;
  /** A turn is running in the thread: nothing here may change it. */
  busy: boolean;
  /** The answer was cut off or failed: regenerating is retrying. */
  retry?: boolean;
  onChoose: (id: string) => void;
  /** `model`: another model writes the new answer (this once). */
  onRegenerate?: (model?: string) => void;
  /** The models "Regenerate with…" offers (none or one: it is not shown). */
  models?: string[];
  onEdit?: () => void;
  /** A finished answer's thumbs (null: none yet); undefined: not offered (a question, an answer cut off). */
  rating?: Rating | null;
  onRate?: (rating: Rating | null) => void;
  /** A finished answer is being read aloud (undefined: not offered). */
  reading?: boolean;
  /** Reads it aloud, or (while it is read) stops. */
  onRead?: () => void;
  onDelete: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement | null>(null);
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);
  return (
    <div data-testid="message-actions" className={`flex flex-wrap items-center gap-1 ${role === 'user' ? 'justify-end' : ''}`}>
      {branch && <VersionSwitcher branch={branch} onChoose={onChoose} disabled={busy} />}
      {rating !== undefined && onRate && <Thumbs rating={rating} onRate={onRate} />}
      {reading !== undefined && onRead && (
        <button
          type="button"
          data-testid="read-aloud"
          aria-pressed={reading}
          onClick={onRead}
          className={actionClass}
          title={reading ? 'Stop reading aloud' : 'Read this answer aloud'}
        >
          {reading ? <Square className="mr-1 inline h-3 w-3 align-[-1px]" /> : <Volume2 className="mr-1 inline h-3 w-3 align-[-1px]" />}
          {reading ? 'Stop' : 'Read aloud'}
        </button>
      )}
      {onRegenerate && (
        <button
          type="button"
          data-testid={retry ? 'retry' : 'regenerate'}
          disabled={busy}
          onClick={() => onRegenerate()}
          className={actionClass}
          title="Write a new answer to the same question; this one stays as another version"
        >
          <RotateCcw className="mr-1 inline h-3 w-3 align-[-1px]" />
          {retry ? 'Retry' : 'Regenerate'}
        </button>
      )}
      {onRegenerate && models.length > 1 && (
        <select
          data-testid="regenerate-with"
          aria-label="Regenerate with another model"
          title="Write a new answer with another model (this once; the thread keeps its model)"
          disabled={busy}
          value=""
          onChange={(e) => {
            if (e.target.value) onRegenerate(e.target.value);
          }}
          className={`${actionClass} max-w-[10rem] bg-transparent`}
        >
          <option value="">with…</option>
          {models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      )}
      {onEdit && (
        <button
          type="button"
          data-testid="edit-message"
          disabled={busy}
          onClick={onEdit}
          className={actionClass}
          title="Edit and send again; the conversation as it was stays as another version (Up in an empty message box edits the last one)"
        >
          <Pencil className="mr-1 inline h-3 w-3 align-[-1px]" />
          Edit
        </button>
      )}
      {confirming ? (
        <span
          role="group"
          aria-label="Confirm delete"
          className="inline-flex items-center gap-1 rounded bg-red-50 px-1 text-xs text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          Delete this and everything after it?
          <button
            ref={confirmButton}
            type="button"
            data-testid="confirm-delete-message"
            disabled={busy}
            className="font-semibold underline"
            onClick={() => {
              setConfirming(false);
              onDelete();
            }}
          >
            Delete
          </button>
          <button type="button" className="underline" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </span>
      ) : (
        <button
          type="button"
          data-testid="delete-message"
          disabled={busy}
          onClick={() => setConfirming(true)}
          className={actionClass}
          aria-label="Delete this message and everything after it"
        >
          Delete
        </button>
      )}
    </div>
  );
}

/** A question being edited in place: Enter (or Send) sends it as a new version, Esc cancels. */
export function EditQuestion({ initial, onSend, onCancel }: { initial: string; onSend: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  const box = useRef<HTMLTextAreaElement | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  const send = () => {
    if (text.trim()) onSend(text);
  };
  return (
    <form
      data-testid="edit-form"
      className="ml-auto w-full max-w-[85%] space-y-1"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <textarea
        ref={box}
        aria-label="Edit your message"
        data-testid="edit-box"
        value={text}
        maxLength={100_000}
        rows={Math.min(10, Math.max(2, text.split('\n').length))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onCancel();
          } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            send();
          }
        }}
        className="w-full resize-y rounded-2xl border border-amber-400 bg-white px-4 py-2 focus:outline-none focus:ring-2 focus:ring-amber-500 dark:bg-stone-900"
      />
      <div className="flex justify-end gap-2 text-sm">
        <button
          type="button"
          data-testid="edit-cancel"
          onClick={onCancel}
          className="rounded-lg border border-stone-300 px-3 py-1 dark:border-stone-700"
        >
          Cancel
        </button>
        <button
          type="submit"
          data-testid="edit-send"
          disabled={!text.trim()}
          className="rounded-lg bg-amber-700 px-3 py-1 text-white disabled:opacity-40"
        >
          Send
        </button>
      </div>
    </form>
  );
}
