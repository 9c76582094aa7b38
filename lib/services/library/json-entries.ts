import { HearthError } from '@/lib/shared/errors';

/**
 * The entries of a JSON array as the bytes stream in, each entry's own bytes, so that a file of
 * thousands of conversations (ChatGPT's conversations.json is one 200 MB array on one line) is
 * never held whole: at most one entry and one chunk are. Only the array's outline is followed
 * here (strings, their escapes, nesting); each entry is then JSON.parse'd and checked by its
 * importer. A streaming JSON library would build every value token by token in JavaScript,
 * several times slower than JSON.parse over an entry's bytes, and the importers want whole
 * entries anyway.
 */

const bad = (message: string) => new HearthError('bad_request', message);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const BOM = [0xef, 0xbb, 0xbf];
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

export async function* jsonArrayEntries(
  chunks: AsyncIterable<Buffer>,
  {
    maxEntryBytes,
    subject,
  }: {
    maxEntryBytes: number;
    /** What a refusal calls the file, as the subject of its sentence ("This JSON list"). */
    subject: () => string;
  },
): AsyncGenerator<Buffer> {
  /** 'start': before the array's `[`; 'list': inside it, between entries; 'done': after its `]`. */
  let where = 'start' as 'start' | 'list' | 'done';
  /** Nesting inside the current entry (0: at the entry's own level). */
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** The current entry's bytes from earlier chunks. */
  let held: Buffer[] = [];
  let heldBytes = 0;
  let entries = 0;
  /** Whether the bytes since the last `,` (or the `[`) hold anything but space. */
  let begun = false;
  const tooLarge = () =>
    new HearthError(
      'too_large',
      `${subject()} has an entry (${entries + 1}) larger than ${Math.round(maxEntryBytes / 1024 / 1024)} MB, which Hearth does not import.`,
    );
  /** Bytes of the body before this chunk. */
  let offset = 0;

  for await (const chunk of chunks) {
    let i = 0;
    // A UTF-8 BOM at the very start (a file saved on Windows), even cut across chunks.
    while (where === 'start' && offset + i < 3 && i < chunk.length && chunk[i] === BOM[offset + i]) i++;
    offset += chunk.length;
    /** Where the current entry's bytes start in this chunk. */
    let from = where === 'list' ? 0 : -1;
    for (; i < chunk.length; i++) {
      const b = chunk[i];
      if (where === 'list') {
        if (inString) {
          if (escaped) escaped = false;
          else if (b === BACKSLASH) escaped = true;
          else if (b === QUOTE) inString = false;
          continue;
        }
        if (b === QUOTE) inString = true;
        else if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++;
        else if (depth > 0 && (b === CLOSE_OBJECT || b === CLOSE_ARRAY)) depth--;
        else if (depth === 0 && (b === COMMA || b === CLOSE_ARRAY)) {
          const entry = Buffer.concat([...held, chunk.subarray(from, i)]);
          if (entry.length > maxEntryBytes) throw tooLarge();
          held = [];
          heldBytes = 0;
          from = i + 1;
          if (begun) {
            entries++;
            yield entry;
          } else if (b === COMMA || entries > 0) {
            throw bad(`${subject()} has an empty entry ${entries + 1} (a stray comma): the file was changed or cut.`);
          }
          begun = false;
          if (b === CLOSE_ARRAY) where = 'done';
          continue;
        }
        if (!begun && !isSpace(b)) begun = true;
      } else if (isSpace(b)) {
        continue;
      } else if (where === 'start' && b === OPEN_ARRAY) {
        where = 'list';
        from = i + 1;
      } else {
        throw bad(`${subject()} ${where === 'start' ? 'is not a JSON list' : 'goes on after the end of its list'}.`);
      }
    }
    if (where === 'list' && from >= 0 && from < chunk.length) {
      const rest = chunk.subarray(from);
      held.push(rest);
      heldBytes += rest.length;
      if (heldBytes > maxEntryBytes) throw tooLarge();
    }
  }
  if (where !== 'done')
    throw bad(`${subject()} ends inside its list, after ${entries} whole entries: it was cut off (export or download it again).`);
}
