'use client';

import { AudioLines, FileText } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { AttachmentInfo } from '@/lib/contract/responses';
import { useComposerDraft } from './hooks/useComposerDraft';
import { ImageThumb, isImage, NoVisionNote } from './Images';
import { Microphone } from './Microphone';
import { useSuggestions, type Collection } from './Suggestions';

/** The message box's id: where the page's skip link leads. */
export const COMPOSER_ID = 'composer';

type Props = {
  /** The assistant's name from Settings (the box says "Message <name>"). */
  assistantName?: string;
  busy: boolean;
  onSend: (text: string, attachments: AttachmentInfo[]) => Promise<boolean>;
  onStop: () => void;
  onUpload: (file: File) => Promise<AttachmentInfo | null>;
  /** Set to the composer's attach function, so files dropped anywhere on the thread come here. */
  attachRef?: React.RefObject<((files: File[]) => void) | null>;
  /** Set to a function that puts a text in the box and focuses it. */
  fillRef?: React.RefObject<((text: string) => void) | null>;
  onOpenImage: (image: AttachmentInfo) => void;
  /** Up in an empty box: edit the last question (absent when there is none to edit). */
  onEditLast?: () => void;
  /** The model server cannot see images: said as soon as one is attached, not only once it is sent. */
  visionOff?: boolean;
  /** Where the unsent text is kept (one draft per thread, 'new' for a new chat), so a reload loses nothing. */
  draftKey: string;
  /** A collection picked with "#": searched in this thread from now on. */
  onCollection: (collection: Collection) => void;
  /** Collections picked for a new chat, shown until its thread exists, and how to drop one. */
  pendingCollections?: Collection[];
  onDropCollection?: (id: string) => void;
  /** A speech-to-text server is set: the microphone button speaks into the box. */
  microphone?: boolean;
  /** Settings → Voice → Keep recordings: what the microphone heard goes with the message. */
  keepRecordings?: boolean;
  /** Starts conversation mode (hands-free turns); absent while it is on or without a speech-to-text server. */
  onConversation?: () => void;
};

function size(bytes: number) {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The message box: Enter sends, Shift+Enter starts a new line; files attach to the next message
 * (by the Attach button, by pasting, e.g. a screenshot with Ctrl+V, or dropped on the thread);
 * images show as thumbnails until sent; "/" offers the saved prompts and "#" the knowledge
 * collections (Suggestions); Stop ends a running turn.
 */
export function Composer({
  busy,
  onSend,
  onStop,
  onUpload,
  attachRef,
  fillRef,
  onOpenImage,
  onEditLast,
  draftKey,
  assistantName = 'Hearth',
  visionOff = false,
  onCollection,
  pendingCollections = [],
  onDropCollection,
  microphone = false,
  keepRecordings = false,
  onConversation,
}: Props) {
  const {
    text,
    setText,
    files,
    removeFile,
    addFile,
    uploading,
    hint,
    submit,
    attach: attachFiles,
  } = useComposerDraft({ draftKey, busy, onSend, onUpload });
  const suggestions = useSuggestions({ text, setText, onCollection });
  useEffect(() => {
    if (!busy) return;
    // Esc stops the reply, unless it is closing something else (the search dialog, the image viewer).
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || document.querySelector('[role="dialog"]')) return;
      onStop();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy, onStop]);
  const picker = useRef<HTMLInputElement | null>(null);

  const attach = async (list: FileList | File[] | null) => {
    await attachFiles(list);
    if (picker.current) picker.current.value = '';
  };
  const box = useRef<HTMLTextAreaElement | null>(null);
  useEffect(() => {
    if (!fillRef) return;
    fillRef.current = (value) => {
      setText(value);
      box.current?.focus();
    };
    return () => {
      fillRef.current = null;
    };
  });
  useEffect(() => {
    if (!attachRef) return;
    attachRef.current = (dropped) => void attach(dropped);
    return () => {
      attachRef.current = null;
    };
  });

  return (
    <form
      className="border-t border-stone-200 p-3 dark:border-stone-800"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {pendingCollections.length > 0 && (
        <div className="mb-2 flex flex-wrap gap-1 text-xs" data-testid="pending-collections">
          {pendingCollections.map((c) => (
            <span key={c.id} className="flex items-center gap-1 rounded-full border border-amber-400 px-2 py-0.5 dark:border-amber-700">
              Searches #{c.name}
              <button type="button" aria-label={`Do not search ${c.name}`} onClick={() => onDropCollection?.(c.id)}>
                ×
              </button>
            </span>
          ))}
        </div>
      )}
      {(files.length > 0 || uploading > 0) && (
        <div className="mb-2 flex flex-wrap items-start gap-1" data-testid="pending-attachments">
          {files.map((f) =>
            isImage(f) ? (
              <span key={f.id} data-testid="pending-image" className="relative">
                <ImageThumb image={f} onOpen={onOpenImage} size="h-16" testId="pending-thumbnail" />
                <button
                  type="button"
                  aria-label={`Remove ${f.name}`}
                  onClick={() => removeFile(f.id)}
                  className="absolute -right-1 -top-1 h-5 w-5 rounded-full bg-stone-800 text-xs leading-5 text-white dark:bg-stone-200 dark:text-stone-900"
                >
                  ×
                </button>
              </span>
            ) : (
              <span
                key={f.id}
                data-testid="pending-attachment"
                className="flex items-center gap-1 rounded-full border border-stone-300 px-2 py-0.5 text-xs dark:border-stone-700"
              >
                <FileText className="h-3.5 w-3.5 shrink-0" />
                {f.name} <span className="opacity-60">{size(f.size)}</span>
                <button type="button" aria-label={`Remove ${f.name}`} onClick={() => removeFile(f.id)}>
                  ×
                </button>
              </span>
            ),
          )}
          {uploading > 0 && <span className="text-xs text-stone-600 dark:text-stone-400">Reading {uploading} file(s)…</span>}
        </div>
      )}
      {visionOff && files.some(isImage) && <NoVisionNote pending />}
      {hint && (
        <p role="status" data-testid="composer-hint" className="mb-2 text-sm text-amber-800 dark:text-amber-300">
          {hint}
        </p>
      )}
      <div className="relative flex items-end gap-2">
        {suggestions.list}
        <input ref={picker} type="file" multiple hidden data-testid="file-input" onChange={(e) => void attach(e.target.files)} />
        <button
          type="button"
          data-testid="attach"
          title="Attach text, code, PDF or Word files, or images (you can also paste or drop them)"
          onClick={() => picker.current?.click()}
          className="rounded-lg border border-stone-300 px-3 py-2 dark:border-stone-700"
        >
          Attach
        </button>
        {microphone && (
          <Microphone
            keep={keepRecordings}
            onText={(heard, kept) => {
              setText(text.trim() ? `${text.trimEnd()} ${heard}` : heard);
              if (kept) addFile(kept);
              box.current?.focus();
            }}
          />
        )}
        {onConversation && (
          <button
            type="button"
            data-testid="conversation-start"
            aria-label="Talk: hands-free conversation"
            title="Talk: Hearth listens, answers aloud as it writes, and listens again; speak to cut in"
            onClick={onConversation}
            className="rounded-lg border border-stone-300 px-3 py-2 dark:border-stone-700"
          >
            <AudioLines className="h-4 w-4" />
          </button>
        )}
        <textarea
          ref={box}
          id={COMPOSER_ID}
          aria-label="Message"
          data-testid="composer"
          rows={Math.min(8, Math.max(1, text.split('\n').length))}
          value={text}
          maxLength={100_000}
          placeholder={`Message ${assistantName}`}
          title="Enter sends, Shift+Enter starts a new line"
          onChange={(e) => setText(e.target.value)}
          onPaste={(e) => {
            // A screenshot or a copied file: attach it; pasted text goes into the box as usual.
            const pasted = Array.from(e.clipboardData.files);
            if (pasted.length === 0) return;
            e.preventDefault();
            void attach(pasted);
          }}
          onKeyDown={(e) => {
            if (suggestions.onKeyDown(e)) return;
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void submit();
            } else if (e.key === 'ArrowUp' && text === '' && files.length === 0 && onEditLast) {
              e.preventDefault();
              onEditLast();
            }
          }}
          className="min-h-[2.5rem] flex-1 resize-none rounded-lg border border-stone-300 bg-white px-3 py-2 focus:outline-none focus:ring-2 focus:ring-amber-500 dark:border-stone-700 dark:bg-stone-900"
        />
        {busy ? (
          <button
            type="button"
            data-testid="stop"
            onClick={onStop}
            className="rounded-lg bg-stone-800 px-4 py-2 text-white dark:bg-stone-200 dark:text-stone-900"
          >
            Stop
          </button>
        ) : (
          <button
            type="submit"
            data-testid="send"
            disabled={!text.trim() || uploading > 0}
            className="rounded-lg bg-amber-700 px-4 py-2 text-white disabled:opacity-40"
          >
            Send
          </button>
        )}
      </div>
    </form>
  );
}
