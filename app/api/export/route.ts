import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { cookieValue } from '@/lib/services/auth/cookies';
import { THEME_COOKIE, THEMES } from '@/lib/contract/theme';
import { exportLibrary } from '@/lib/services/exports/library';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The whole library as one JSON Lines file, streamed (lib/services/library/format.ts); POST /api/import takes it back. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.exportLibrary, ({ request, rt }) => {
    const { store, files, toolServers } = rt;
    const now = Date.now();
    const day = new Date(now).toISOString().slice(0, 10);
    // The browser's theme goes with the library only when one was chosen (else the system's stands).
    const chosen = cookieValue(request.headers.get('cookie'), THEME_COOKIE);
    const theme = (THEMES as readonly string[]).includes(chosen ?? '') ? chosen : undefined;
    return new Response(exportLibrary({ store, files, now, theme, toolServers: toolServers.forExport() }), {
      headers: {
        'Content-Type': 'application/x-ndjson; charset=utf-8',
        'Content-Disposition': `attachment; filename="hearth-library-${day}.jsonl"`,
        'Cache-Control': 'no-store',
      },
    });
  }),
);
