import { imageType } from '@/lib/data/files/image';
import { brand, isBranded } from '@/lib/shared/errors';
import { checkedGet, type WebDeps } from './web';

/**
 * A remote image from model output, fetched by the server only after the user clicked
 * "load" (components/chat/Markdown.tsx). Going through Hearth keeps the page's CSP at
 * img-src 'self' and sends the remote site nothing of the user's (no cookies, no referrer,
 * not even their browser); the fetch takes the same SSRF check as fetch_url, so a model
 * cannot point it at the user's router or a cloud metadata address.
 */

export const REMOTE_IMAGE_MAX_BYTES = 10 * 1024 * 1024;

export class RemoteImageError extends Error {
  constructor(message: string) {
    super(message);
    brand(this, 'RemoteImageError');
  }
}

/** Recognised by brand: the runtime that throws it is bundled apart from the route that catches it (lib/shared/errors.ts). */
export const isRemoteImageError = (err: unknown): err is RemoteImageError => isBranded(err, 'RemoteImageError');

export async function fetchRemoteImage(url: string, deps: WebDeps, signal: AbortSignal): Promise<{ type: string; bytes: Buffer }> {
  let got;
  try {
    got = await checkedGet(url, deps, signal, REMOTE_IMAGE_MAX_BYTES + 1);
  } catch (err) {
    throw new RemoteImageError((err as Error).message);
  }
  const { res } = got;
  if (res.truncated || res.body.length > REMOTE_IMAGE_MAX_BYTES)
    throw new RemoteImageError(`the image is larger than ${REMOTE_IMAGE_MAX_BYTES / 1024 / 1024} MB`);
  // Raster types only, recognised by their first bytes (an SVG could carry script).
  const type = imageType(res.body);
  if (!type) throw new RemoteImageError('what came back is not a PNG, JPEG, GIF, WebP or AVIF image');
  return { type, bytes: res.body };
}
