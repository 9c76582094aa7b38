import { handle, json, otherMethods, parseId } from '@/lib/http/http';
import { idParam } from '@/lib/contract/requests';
import { getRuntime } from '@/lib/services/runtime';
import { requireThread } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');

type Params = { params: Promise<{ id: string }> };

/** The tools a turn of this thread may be offered, and which of them the thread switched off (PATCH the thread's disabledTools). */
export function GET(request: Request, { params }: Params) {
  return handle(request, async () => {
    const id = parseId(idParam, (await params).id);
    const { store, tools } = getRuntime();
    const off = new Set(requireThread(store, id).disabledTools ?? []);
    return json({
      tools: tools.registry.tools.map((t) => ({
        name: t.name,
        source: t.source ?? 'Hearth',
        description: t.description,
        enabled: !off.has(t.name),
      })),
    });
  });
}
