import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { threadFile } from '@/lib/services/exports/thread-file';
import { threadView } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** A thread as JSON (lossless, importable, every branch), Markdown, or one self-contained web page. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.exportThread, async ({ params: { id }, query, rt }) => {
    const { format } = query();
    const { store, turns, settings } = rt;
    const view = await threadView(store, turns, id, { allBranches: format === 'json' });
    const { assistantName, timezone } = settings.current();
    const file = threadFile(view, format, { assistantName, timezone });
    return new Response(file.body, {
      headers: {
        'Content-Type': file.contentType,
        'Content-Disposition': `attachment; filename="${file.filename}"`,
        'Cache-Control': 'no-store',
      },
    });
  }),
);
