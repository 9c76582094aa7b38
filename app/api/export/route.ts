import { handle, otherMethods } from '@/lib/api/http';
import { exportLibrary } from '@/lib/library/export';
import { getRuntime } from '@/lib/server/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');

/** The whole library as one JSON Lines file, streamed (lib/library/format.ts); POST /api/import takes it back. */
export function GET(request: Request) {
  return handle(request, async () => {
    const { store, files } = getRuntime();
    const now = Date.now();
    const day = new Date(now).toISOString().slice(0, 10);
    return new Response(exportLibrary({ store, files, now }), {
      headers: {
        'Content-Type': 'application/x-ndjson; charset=utf-8',
        'Content-Disposition': `attachment; filename="hearth-library-${day}.jsonl"`,
        'Cache-Control': 'no-store',
      },
    });
  });
}
