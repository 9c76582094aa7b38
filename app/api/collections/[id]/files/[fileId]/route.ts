import { handle, json, otherMethods, parseId, parseInput, searchParams } from '@/lib/http/http';
import { idParam, passageQuery } from '@/lib/contract/requests';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, PATCH, OPTIONS } = otherMethods('GET', 'DELETE');

type Params = { params: Promise<{ id: string; fileId: string }> };

/**
 * GET /api/collections/:id/files/:fileId?from=&to=: the file's lines around a passage (the
 * citation viewer highlights from..to), with the file's status.
 */
export function GET(request: Request, { params }: Params) {
  return handle(request, async () => {
    const { id, fileId } = await params;
    const range = parseInput(passageQuery, searchParams(request));
    return json(await getRuntime().knowledge.excerpt(parseId(idParam, id, 'collection'), parseId(idParam, fileId, 'file'), range));
  });
}

/** DELETE /api/collections/:id/files/:fileId: the file leaves the collection with its passages. */
export function DELETE(request: Request, { params }: Params) {
  return handle(request, async () => {
    const { id, fileId } = await params;
    getRuntime().knowledge.removeFile(parseId(idParam, id, 'collection'), parseId(idParam, fileId, 'file'));
    return new Response(null, { status: 204 });
  });
}
