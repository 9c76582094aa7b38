import type { FileKind } from '@/lib/data/file-store';

/** What receiving an upload gives (files.ts), shared by the parts that receive it. */

/** The beginning of a file's text that the database keeps. */
export const TEXT_PREFIX_CHARS = 40_000;

export type ReceivedFile = {
  name: string;
  mime: string;
  size: number;
  sha256: string;
  kind: FileKind;
  /** The first TEXT_PREFIX_CHARS of the text, line endings made \n. */
  prefix: string;
  chars: number;
  lines: number;
  /** An image's size after it was prepared (lib/data/files/image.ts). */
  width?: number;
  height?: number;
};

export type UploadLimits = {
  /** A text file may be this large (read as it streams). */
  maxTextBytes: number;
  /** A PDF, Word file or image may be this large (it is read in memory). */
  maxDocumentBytes: number;
};
