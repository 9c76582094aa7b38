import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { HearthError } from '@/lib/shared/errors';
import { isRemoteImageError } from '@/lib/tools/remote-image';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * ?url=…: an image named in model output, fetched by Hearth after the user clicked to load it.
 * Only the page itself may ask (Sec-Fetch-Site), so another site cannot use the user's Hearth
 * to fetch things.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.remoteImage, async ({ request, query, rt }) => {
    const site = request.headers.get('sec-fetch-site');
    if (site && site !== 'same-origin') throw new HearthError('forbidden', "Only Hearth's own page may load images through it.");
    const { url } = query();
    try {
      const image = await rt.remoteImage(url, request.signal);
      return new Response(new Uint8Array(image.bytes), {
        headers: { 'Content-Type': image.type, 'Cache-Control': 'private, max-age=3600', 'Content-Disposition': 'inline' },
      });
    } catch (err) {
      if (isRemoteImageError(err)) throw new HearthError('image_unavailable', `The image could not be loaded: ${err.message}.`);
      throw err;
    }
  }),
);
