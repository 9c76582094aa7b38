'use client';

import { useState } from 'react';

/** The message box: Enter sends, Shift+Enter starts a new line; Stop ends a running turn. */
export function Composer({ busy, onSend, onStop }: { busy: boolean; onSend: (text: string) => Promise<boolean>; onStop: () => void }) {
  const [text, setText] = useState('');
  const submit = async () => {
    const content = text;
    if (!content.trim() || busy) return;
    setText('');
    const ok = await onSend(content);
    if (!ok) setText(content); // nothing typed is lost when sending fails
  };
  return (
    <form
      className="flex items-end gap-2 border-t border-stone-200 p-3 dark:border-stone-800"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <textarea
        aria-label="Message"
        data-testid="composer"
        rows={Math.min(8, Math.max(1, text.split('\n').length))}
        value={text}
        maxLength={100_000}
        placeholder="Ask anything. Enter sends, Shift+Enter for a new line."
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void submit();
          }
        }}
        className="min-h-[2.5rem] flex-1 resize-none rounded-lg border border-stone-300 bg-white px-3 py-2 focus:outline-none focus:ring-2 focus:ring-amber-500 dark:border-stone-700 dark:bg-stone-900"
      />
      {busy ? (
        <button type="button" data-testid="stop" onClick={onStop} className="rounded-lg bg-stone-800 px-4 py-2 text-white dark:bg-stone-200 dark:text-stone-900">
          Stop
        </button>
      ) : (
        <button type="submit" data-testid="send" disabled={!text.trim()} className="rounded-lg bg-amber-600 px-4 py-2 text-white disabled:opacity-40">
          Send
        </button>
      )}
    </form>
  );
}
