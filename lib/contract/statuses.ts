/**
 * The states a stored thing can be in, one list each: the database's columns (db/schema.ts),
 * the library file, the server's code and the page all name them from here.
 */

/** An answer while it is written (`streaming`), once accepted, stopped with its words kept, or failed. */
export const messageStatuses = ['streaming', 'complete', 'interrupted', 'error'] as const;
export type MessageStatus = (typeof messageStatuses)[number];

/** A turn waiting for a slot, running, or how it ended (`interrupted`: Hearth stopped under it). */
export const turnStatuses = ['queued', 'running', 'done', 'error', 'cancelled', 'interrupted'] as const;
export type TurnStatus = (typeof turnStatuses)[number];
/** A turn not yet over: waiting for a slot or running (a process holds it; the others may take it over). */
export const unfinishedTurnStatuses = ['queued', 'running'] as const satisfies readonly TurnStatus[];
export const isUnfinishedTurn = (status: string | undefined) =>
  (unfinishedTurnStatuses as readonly (string | undefined)[]).includes(status);

/** What a person may do: owner (everything), admin (people and settings), member (their own things). */
export const roles = ['owner', 'admin', 'member'] as const;
export type Role = (typeof roles)[number];

/** A knowledge collection's file, from upload to searchable. */
export const collectionFileStatuses = ['queued', 'indexing', 'ready', 'error'] as const;
export type CollectionFileStatus = (typeof collectionFileStatuses)[number];

/**
 * What a stored file is, as Hearth reads it. sheet: a spreadsheet (XLSX, ODS) or a CSV not in
 * UTF-8, whose text is extracted (and which is a table). audio: a recording kept with the message
 * it sent (Settings → Voice → Keep recordings), its transcript as its text.
 */
export const fileKinds = ['text', 'pdf', 'docx', 'image', 'sheet', 'audio'] as const;
export type FileKind = (typeof fileKinds)[number];
