import { handle, json, otherMethods, parseId, parseInput, searchParams } from '@/lib/http/http';
import { exportQuery, idParam } from '@/lib/contract/requests';
import { getRuntime } from '@/lib/services/runtime';
import { threadHtml } from '@/lib/services/thread-html';
import { threadMarkdown, threadView } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');

type Params = { params: Promise<{ id: string }> };

export function GET(request: Request, { params }: Params) {
  return handle(request, async () => {
    const id = parseId(idParam, (await params).id);
    const { format } = parseInput(exportQuery, searchParams(request));
    const { store, turns, settings } = getRuntime();
    const view = threadView(store, turns, id, { allBranches: format === 'json' });
    const name = (view.title || 'thread').replace(/[^\w.-]+/g, '-').slice(0, 60) || 'thread';
    if (format === 'json') {
      return json(view, 200, { 'Content-Disposition': `attachment; filename="${name}.json"` });
    }
    if (format === 'html') {
      return new Response(threadHtml(view, settings.current().assistantName, settings.current().timezone), {
        headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}.html"` },
      });
    }
    return new Response(threadMarkdown(view, settings.current().assistantName, settings.current().timezone), {
      headers: { 'Content-Type': 'text/markdown; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}.md"` },
    });
  });
}
