import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { cookieValue } from '@/lib/services/auth/cookies';
import { THEME_COOKIE, THEMES } from '@/lib/contract/theme';
import { libraryDownload } from '@/lib/services/exports/library-response';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The asking person's whole library as one JSON Lines file, streamed (lib/services/library/format.ts); POST /api/import takes it back. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.exportLibrary, ({ request, rt }) => {
    // The browser's theme goes with the library only when one was chosen (else the system's stands).
    const chosen = cookieValue(request.headers.get('cookie'), THEME_COOKIE);
    const theme = (THEMES as readonly string[]).includes(chosen ?? '') ? chosen : undefined;
    return libraryDownload(rt, rt.person, { theme });
  }),
);
