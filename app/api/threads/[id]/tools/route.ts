import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { requireThread } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The tools a turn of this thread may be offered, and which of them the thread switched off (PATCH the thread's disabledTools). */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.threadTools, async ({ params, rt }) => {
    const { store, tools } = rt;
    const off = new Set((await requireThread(store, params.id)).disabledTools ?? []);
    return reply({
      tools: tools.registry.tools.map((t) => ({
        name: t.name,
        source: t.source ?? 'Hearth',
        description: t.description,
        enabled: !off.has(t.name),
      })),
    });
  }),
);
