'use client';

import { useEffect, useState } from 'react';
import type { AttachmentInfo } from '@/lib/contract/responses';

const draftStorageKey = (key: string) => `hearth.draft.${key}`;

function readDraft(key: string): string {
  try {
    return localStorage.getItem(draftStorageKey(key)) ?? '';
  } catch {
    return '';
  }
}

function keepDraft(key: string, text: string) {
  try {
    if (text) localStorage.setItem(draftStorageKey(key), text);
    else localStorage.removeItem(draftStorageKey(key));
  } catch {
    // storage full or off: the text is still in the box
  }
}

/**
 * What the composer holds until it is sent: the text (kept per thread in localStorage, so a
 * reload or a switch of threads loses nothing), the files attached to it and those still
 * uploading, and the hint when Enter is pressed while a reply is written. A send that fails
 * gives the text and files back.
 */
export function useComposerDraft({
  draftKey,
  busy,
  onSend,
  onUpload,
}: {
  draftKey: string;
  busy: boolean;
  onSend: (text: string, attachments: AttachmentInfo[]) => Promise<boolean>;
  onUpload: (file: File) => Promise<AttachmentInfo | null>;
}) {
  const [text, setTextState] = useState('');
  /** Said when Enter is pressed while the reply is still being written. */
  const [hint, setHint] = useState<string | null>(null);
  const [files, setFiles] = useState<AttachmentInfo[]>([]);
  const [uploading, setUploading] = useState(0);
  const setText = (value: string) => {
    setTextState(value);
    keepDraft(draftKey, value);
  };
  // Each thread has its own draft: switching threads (or reloading) brings back what was typed there.
  useEffect(() => {
    setTextState(readDraft(draftKey));
    setHint(null);
  }, [draftKey]);
  useEffect(() => {
    if (!busy) setHint(null);
  }, [busy]);

  const submit = async () => {
    const content = text;
    if (busy && content.trim()) {
      setHint('The reply is still being written. Press Esc or Stop to end it; what you typed stays here.');
      return;
    }
    if (!content.trim() || busy || uploading > 0) return;
    const attached = files;
    setText('');
    setFiles([]);
    const ok = await onSend(content, attached);
    if (!ok) {
      // nothing typed or attached is lost when sending fails
      setText(content);
      setFiles(attached);
    }
  };

  const attach = async (list: FileList | File[] | null) => {
    for (const file of Array.from(list ?? [])) {
      setUploading((n) => n + 1);
      const info = await onUpload(file);
      setUploading((n) => n - 1);
      if (info) setFiles((f) => [...f, info]);
    }
  };

  const removeFile = (id: string) => setFiles((all) => all.filter((x) => x.id !== id));
  /** A file already stored (a kept recording) goes with the next message. */
  const addFile = (info: AttachmentInfo) => setFiles((all) => [...all, info]);

  return { text, setText, files, removeFile, addFile, uploading, hint, submit, attach };
}
