import { PassThrough } from 'node:stream';
import type JSZip from 'jszip';
import { isHearthError } from '@/lib/shared/errors';

/**
 * A zip entry's bytes as they inflate (jszip's stream), each chunk counted by `count`, which
 * may throw (a HearthError) to stop: a small zip can hold gigabytes of zeros, so a limit is
 * checked as the bytes come, not after. Any other failure (a damaged archive) becomes
 * `unreadable`'s error.
 */
export async function* zipEntryChunks(
  entry: JSZip.JSZipObject,
  count: (bytes: number) => void,
  unreadable: (err: Error) => Error,
): AsyncGenerator<Buffer> {
  // jszip's stream is an old readable-stream one, not async-iterable: piped into Node's own (backpressure kept).
  const source = entry.nodeStream('nodebuffer');
  const stream = new PassThrough();
  source.on('error', (err: Error) => stream.destroy(err));
  source.pipe(stream);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      count(chunk.length);
      yield chunk;
    }
  } catch (err) {
    if (isHearthError(err)) throw err;
    throw unreadable(err as Error);
  } finally {
    stream.destroy();
    (source as unknown as { pause?: () => void }).pause?.();
  }
}
