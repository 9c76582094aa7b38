'use client';

import type { AttachmentInfo } from '@/lib/contract/responses';
import { useDialogFocus } from './useDialogFocus';

/** Where a stored attachment is served (GET /api/attachments/:id). */
export const attachmentUrl = (id: string) => `/api/attachments/${encodeURIComponent(id)}`;

export const isImage = (a: AttachmentInfo) => a.kind === 'image';

/** A small picture of an attached image; a click opens it full size. */
export function ImageThumb({
  image,
  onOpen,
  size = 'h-24',
  testId,
}: {
  image: AttachmentInfo;
  onOpen: (image: AttachmentInfo) => void;
  size?: string;
  testId: string;
}) {
  return (
    <button
      type="button"
      data-testid={testId}
      onClick={() => onOpen(image)}
      className="overflow-hidden rounded-lg border border-stone-300 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-500 dark:border-stone-700"
      aria-label={`Open ${image.name} full size`}
      title={image.name}
    >
      {/* eslint-disable-next-line @next/next/no-img-element -- a stored attachment, already scaled on upload */}
      <img src={attachmentUrl(image.id)} alt={image.name} className={`${size} w-auto max-w-48 object-cover`} />
    </button>
  );
}

/** An image full size over the page: Esc, the close button or a click outside closes it. */
export function ImageViewer({ image, onClose }: { image: AttachmentInfo; onClose: () => void }) {
  const close = useDialogFocus(onClose);
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label={image.name}
      data-testid="image-viewer"
      className="fixed inset-0 z-50 flex items-center justify-center bg-black/80 p-4"
      onClick={onClose}
    >
      {/* eslint-disable-next-line @next/next/no-img-element -- a stored attachment */}
      <img
        src={attachmentUrl(image.id)}
        alt={image.name}
        className="max-h-full max-w-full object-contain"
        onClick={(e) => e.stopPropagation()}
      />
      <div className="absolute right-4 top-4 flex gap-2">
        <a
          href={attachmentUrl(image.id)}
          download={image.name}
          onClick={(e) => e.stopPropagation()}
          className="rounded-md bg-white/90 px-3 py-1 text-sm text-stone-900"
        >
          Download
        </a>
        <button ref={close} type="button" onClick={onClose} className="rounded-md bg-white/90 px-3 py-1 text-sm text-stone-900">
          Close
        </button>
      </div>
      <p className="absolute bottom-4 left-4 right-4 truncate text-center text-sm text-white">
        {image.name}
        {image.width && image.height ? ` · ${image.width}×${image.height}` : ''}
      </p>
    </div>
  );
}

/** Under a message with images, when the model server cannot see them: why, and how to change that. */
export function NoVisionNote({ pending = false }: { pending?: boolean }) {
  return (
    <p
      data-testid={pending ? 'pending-no-vision-note' : 'no-vision-note'}
      className={`mt-1 text-xs text-stone-600 dark:text-stone-400 ${pending ? 'mb-2' : 'max-w-md text-right'}`}
    >
      {pending ? 'The model cannot see this image: it will be kept with your message, but the model reads only its name. ' : ''}
      {pending ? 'llama-server' : 'The model cannot see images: llama-server'} runs without a vision projector. Start it with a vision model
      and its projector (<code>--mmproj mmproj.gguf</code>, or <code>-hf ggml-org/gemma-3-4b-it-GGUF</code>, which fetches both) and the
      images are sent with {pending ? 'your messages' : 'this message in the next turn'}.
    </p>
  );
}
