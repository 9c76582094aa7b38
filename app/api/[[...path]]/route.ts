import { handle, json } from '@/lib/http/handle';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Any /api path no route serves: the JSON error contract, not Next's HTML 404 page. */
function unknownPath(request: Request): Promise<Response> {
  return handle(request, () => {
    const path = new URL(request.url).pathname;
    return json({ error: { code: 'not_found', message: `There is no API at ${path.slice(0, 200)}.` } }, 404);
  });
}

export {
  unknownPath as GET,
  unknownPath as HEAD,
  unknownPath as POST,
  unknownPath as PUT,
  unknownPath as PATCH,
  unknownPath as DELETE,
  unknownPath as OPTIONS,
};
