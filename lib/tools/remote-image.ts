import { brand, isBranded } from '@/lib/errors';
import { guardedGet, type WebDeps } from './web';

/**
 * A remote image from model output, fetched by the server only after the user clicked
 * "load" (components/chat/Markdown.tsx). Going through Hearth keeps the page's CSP at
 * img-src 'self' and sends the remote site nothing of the user's (no cookies, no referrer,
 * not even their browser); the fetch takes the same SSRF guard as fetch_url, so a model
 * cannot point it at the user's router or a cloud metadata address.
 */

export const REMOTE_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** Raster types only, recognised by their first bytes (an SVG could carry script). */
const SIGNATURES: [string, (b: Buffer) => boolean][] = [
  ['image/png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1'))],
  ['image/webp', (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'],
  ['image/avif', (b) => b.subarray(4, 12).toString('latin1') === 'ftypavif'],
];

export function imageType(bytes: Buffer): string | null {
  return SIGNATURES.find(([, matches]) => matches(bytes))?.[0] ?? null;
}

export class RemoteImageError extends Error {
  constructor(message: string) {
    super(message);
    brand(this, 'RemoteImageError');
  }
}

/** Recognised by brand: the runtime that throws it is bundled apart from the route that catches it (lib/errors.ts). */
export const isRemoteImageError = (err: unknown): err is RemoteImageError => isBranded(err, 'RemoteImageError');

export async function fetchRemoteImage(url: string, deps: WebDeps, signal: AbortSignal): Promise<{ type: string; bytes: Buffer }> {
  let got;
  try {
    got = await guardedGet(url, deps, signal, REMOTE_IMAGE_MAX_BYTES + 1);
  } catch (err) {
    throw new RemoteImageError((err as Error).message);
  }
  const { res } = got;
  if (res.truncated || res.body.length > REMOTE_IMAGE_MAX_BYTES) throw new RemoteImageError(`the image is larger than ${REMOTE_IMAGE_MAX_BYTES / 1024 / 1024} MB`);
  const type = imageType(res.body);
  if (!type) throw new RemoteImageError('what came back is not a PNG, JPEG, GIF, WebP or AVIF image');
  return { type, bytes: res.body };
}
