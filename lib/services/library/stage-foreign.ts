import JSZip from 'jszip';
import { nestsDeeperThan, tooDeep } from '@/lib/shared/json-depth';
import { zipEntryChunks } from '@/lib/data/files/zip-entry';
import { HearthError } from '@/lib/shared/errors';
import type { ImportSummary } from '@/lib/contract/responses';
import { FORMATS_READ, MAX_LINE_BYTES } from './format';
import { chatgpt } from './chatgpt';
import type { ForeignFormat } from './foreign';
import { jsonArrayEntries } from './json-entries';
import { libreChat } from './librechat';
import { LineReader } from './line-reader';
import { isSessionLine, llamaCpp, SessionLines } from './llamacpp';
import { openWebui } from './openwebui';
import type { RecordSpool } from './spool';
import { threadJsonRecords, THREAD_JSON_MAX_BYTES } from './thread-json';

/**
 * Staging what is not a Hearth library file: another app's export, or one thread's JSON
 * export. Each conversation is checked and its records spooled as it comes, so a list of
 * thousands streams through holding one: a JSON list an entry at a time, the llama.cpp page's
 * JSON Lines a session at a time, a zip (the page's export of several, or ChatGPT's data export
 * as it mails it) an entry at a time.
 */

const bad = (message: string) => new HearthError('bad_request', message);

/** Another app's export, recognised by the shape of a conversation (its name and type say nothing reliable). */
const FOREIGN_FORMATS: ForeignFormat[] = [chatgpt, llamaCpp, openWebui, libreChat];
const formatOf = (value: unknown) => FOREIGN_FORMATS.find((f) => f.isConversation(value));
const NONE_OF_THEM = `This JSON list is none of the files Hearth imports (its first entry is no conversation of theirs). Hearth imports ${FORMATS_READ}.`;

/**
 * The import's records, spooled; says whose export it was. The first line was read (to see
 * whether it is a library file) and put back; `firstLine` is it parsed, when it is one line of JSON.
 */
export async function stageForeign(
  reader: LineReader,
  spool: RecordSpool,
  knownAttachment: Parameters<typeof threadJsonRecords>[1],
  firstLine: unknown,
): Promise<ImportSummary['source']> {
  if (isSessionLine(firstLine)) {
    await stageSessionLines(reader, spool, 0);
    return llamaCpp.source;
  }
  if (await reader.startsWith(ZIP_SIGNATURE)) return stageZip(await reader.rest(ZIP_MAX_BYTES, 'A zip to import'), spool);
  if ((await reader.firstSignificantByte()) === OPEN_BRACKET) return stageList(reader.bytes(), spool);
  return stageDocument(await reader.rest(THREAD_JSON_MAX_BYTES), spool, knownAttachment);
}

const OPEN_BRACKET = 0x5b;

/** Conversations one import may hold (a decade of daily use is a few thousand); past it, a 413 says so. */
export const MAX_CONVERSATIONS = 100_000;
const tooMany = () =>
  new HearthError(
    'too_large',
    `This file holds more than ${MAX_CONVERSATIONS.toLocaleString('en')} conversations, which Hearth does not import at once. Nothing was changed.`,
  );

/**
 * A list of conversations (ChatGPT's conversations.json, Open WebUI's or the llama.cpp page's
 * export of all), read an entry at a time as the body streams in: the first entry says whose
 * export it is, and each is checked as that app's. Memory holds one conversation, however long the list.
 */
async function stageList(bytes: AsyncIterable<Buffer>, spool: RecordSpool): Promise<ImportSummary['source']> {
  let format: ForeignFormat | undefined;
  let index = 0;
  const entries = jsonArrayEntries(bytes, {
    maxEntryBytes: THREAD_JSON_MAX_BYTES,
    subject: () => (format ? `${format.name} could not be imported, and nothing was changed: it` : 'This JSON list'),
  });
  for await (const entry of entries) {
    let value: unknown;
    const text = entry.toString('utf8');
    if (nestsDeeperThan(text)) throw bad(`${format?.name ?? 'This JSON list'}, entry ${index + 1}: ${tooDeep('it')}.`);
    try {
      value = JSON.parse(text);
    } catch {
      throw bad(`${format?.name ?? 'This JSON list'}, entry ${index + 1}: not JSON (is the file cut or changed?).`);
    }
    format ??= formatOf(value);
    if (!format) throw bad(NONE_OF_THEM);
    if (index >= MAX_CONVERSATIONS) throw tooMany();
    for (const record of format.records(value, index)) spool.write(index + 1, record);
    index++;
  }
  if (!format) throw bad('This JSON list is empty: there is nothing in it to import.');
  return format.source;
}

/** The llama.cpp page's JSON Lines export, a session at a time; `index` counts on from earlier files (a zip's). Gives the next index. */
async function stageSessionLines(reader: LineReader, spool: RecordSpool, index: number, file = ''): Promise<number> {
  const sessions = new SessionLines();
  const where = file ? `${llamaCpp.name}, ${file}` : llamaCpp.name;
  const add = (session: unknown) => {
    if (session === null) return;
    if (index >= MAX_CONVERSATIONS) throw tooMany();
    for (const record of llamaCpp.records(session, index)) spool.write(index + 1, record);
    index++;
  };
  let line = 0;
  for (let bytes = await reader.line(); bytes !== null; bytes = await reader.line()) {
    line++;
    if (bytes === 'too-long') throw bad(`${where}, line ${line}: longer than ${MAX_LINE_BYTES / 1024 / 1024} MB, which no line of it is.`);
    add(sessions.line(bytes.toString('utf8'), line, where));
  }
  add(await sessions.end());
  return index;
}

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** Files a zip may hold: ChatGPT's mailed export holds conversations.json and the images beside it, the llama.cpp page's a file per conversation. */
export const MAX_ZIP_ENTRIES = 20_000;

/**
 * How many entries a zip's central directory holds, walked header by header (so a count in its
 * last record that lies changes nothing), stopping past MAX_ZIP_ENTRIES; null when the
 * directory cannot be found (the zip library then says what is wrong).
 */
export function zipEntryCount(bytes: Buffer): number | null {
  const END = 0x06054b50;
  const ZIP64_LOCATOR = 0x07064b50;
  const ZIP64_END = 0x06064b50;
  const HEADER = 0x02014b50;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (bytes.readUInt32LE(i) !== END) continue;
    let at = bytes.readUInt32LE(i + 16);
    if (at === 0xffffffff && i >= 20 && bytes.readUInt32LE(i - 20) === ZIP64_LOCATOR) {
      const record = Number(bytes.readBigUInt64LE(i - 12));
      if (record + 56 <= bytes.length && bytes.readUInt32LE(record) === ZIP64_END) at = Number(bytes.readBigUInt64LE(record + 48));
    }
    let count = 0;
    while (at + 46 <= bytes.length && bytes.readUInt32LE(at) === HEADER && count <= MAX_ZIP_ENTRIES) {
      count++;
      at += 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    }
    return count;
  }
  return null;
}
/** A zip is read whole (its directory is at its end), so it is bounded as one document is. */
const ZIP_MAX_BYTES = THREAD_JSON_MAX_BYTES;
/** What a zip's entries may inflate to, in all: a small zip can hold gigabytes of zeros. */
const ZIP_MAX_INFLATED_BYTES = 4 * 1024 * 1024 * 1024;

/**
 * A zip: the llama.cpp page's export of several conversations (one `.jsonl` per conversation,
 * as conversation-transfer.service.ts writes it with fflate's zipSync), or ChatGPT's data
 * export as it is mailed (its `conversations.json` is read; the rest, images and HTML, is not
 * history). Each entry is inflated as a stream, counted against a limit, and read as it inflates.
 */
async function stageZip(bytes: Buffer, spool: RecordSpool): Promise<ImportSummary['source']> {
  // Counted from the zip's own directory before any library reads it: reading 300,000 entries'
  // names is seconds of work for nothing Hearth would import.
  const entries = zipEntryCount(bytes);
  if (entries !== null && entries > MAX_ZIP_ENTRIES) {
    throw new HearthError(
      'too_large',
      `This zip holds more than ${MAX_ZIP_ENTRIES.toLocaleString('en')} files, which no export Hearth imports does: it is not one of them, or it holds much more than conversations.`,
    );
  }
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch (err) {
    throw bad(`This zip cannot be read (${(err as Error).message}): it may be cut off or damaged.`);
  }
  const files = Object.values(zip.files).filter((f) => !f.dir);
  let inflated = 0;
  const chunks = (entry: JSZip.JSZipObject) =>
    entryChunks(entry, (n) => {
      inflated += n;
      if (inflated > ZIP_MAX_INFLATED_BYTES)
        throw new HearthError(
          'too_large',
          `This zip inflates to more than ${ZIP_MAX_INFLATED_BYTES / 1024 ** 3} GB, which Hearth does not import.`,
        );
    });
  const conversations = files.find((f) => /(^|\/)conversations\.json$/i.test(f.name));
  if (conversations) return stageList(chunks(conversations), spool);
  const sessions = files.filter((f) => /\.jsonl$/i.test(f.name)).sort((a, b) => a.name.localeCompare(b.name));
  if (sessions.length === 0) {
    throw bad(
      `This zip holds neither ChatGPT's conversations.json nor the llama.cpp page's .jsonl conversations, so it is none of the files Hearth imports: ${FORMATS_READ}.`,
    );
  }
  let index = 0;
  for (const entry of sessions)
    index = await stageSessionLines(new LineReader(chunks(entry), ZIP_MAX_INFLATED_BYTES), spool, index, entry.name);
  return llamaCpp.source;
}

/** A zip entry's bytes as they inflate, counted (`count` may throw to stop); a damaged entry is said as such. */
const entryChunks = (entry: JSZip.JSZipObject, count: (bytes: number) => void) =>
  zipEntryChunks(entry, count, (err) => bad(`This zip cannot be read (${err.message}): it may be cut off or damaged.`));

/** One JSON document: one conversation of another app (LibreChat writes one per file), or a Hearth thread's export. */
async function stageDocument(
  bytes: Buffer,
  spool: RecordSpool,
  knownAttachment: Parameters<typeof threadJsonRecords>[1],
): Promise<ImportSummary['source']> {
  let doc: unknown;
  const text = bytes.toString('utf8');
  if (nestsDeeperThan(text)) throw bad(`${tooDeep('This file')}.`);
  try {
    doc = JSON.parse(text);
  } catch {
    throw bad(`This file is not JSON, so it is none of the files Hearth imports: ${FORMATS_READ}.`);
  }
  const format = formatOf(doc);
  const records = format ? format.records(doc, 0) : await threadJsonRecords(doc, knownAttachment);
  for (const record of records) spool.write(1, record);
  return format?.source ?? 'thread';
}
