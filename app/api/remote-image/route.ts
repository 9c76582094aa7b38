import { z } from 'zod';
import { handle, otherMethods, parseInput, searchParams } from '@/lib/http/http';
import { HearthError } from '@/lib/shared/errors';
import { getRuntime } from '@/lib/services/runtime';
import { isRemoteImageError } from '@/lib/tools/remote-image';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');

const query = z
  .object({
    url: z
      .string()
      .min(8)
      .max(2000)
      .regex(/^https?:\/\//i, 'must be an http(s) URL'),
  })
  .strict();

/**
 * GET /api/remote-image?url=…: an image named in model output, fetched by Hearth after the
 * user clicked to load it. Only the page itself may ask (Sec-Fetch-Site), so another site
 * cannot use the user's Hearth to fetch things.
 */
export function GET(request: Request) {
  return handle(request, async () => {
    const site = request.headers.get('sec-fetch-site');
    if (site && site !== 'same-origin') throw new HearthError('forbidden', "Only Hearth's own page may load images through it.");
    const { url } = parseInput(query, searchParams(request));
    try {
      const image = await getRuntime().remoteImage(url, request.signal);
      return new Response(new Uint8Array(image.bytes), {
        headers: { 'Content-Type': image.type, 'Cache-Control': 'private, max-age=3600', 'Content-Disposition': 'inline' },
      });
    } catch (err) {
      if (isRemoteImageError(err)) throw new HearthError('image_unavailable', `The image could not be loaded: ${err.message}.`);
      throw err;
    }
  });
}
