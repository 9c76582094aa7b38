import { handle, json, otherMethods, readJson } from '@/lib/http/http';
import { proposalsAction } from '@/lib/contract/settings';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

/**
 * The owner's word on settings an imported library file proposed (GET /api/settings lists them):
 * `apply` puts each named one in force as if saved in the page, `dismiss` drops it. Answers the
 * settings as GET /api/settings does.
 */
export function POST(request: Request) {
  return handle(request, async () => {
    const action = await readJson(request, proposalsAction);
    return json(getRuntime().settings.decideProposals(action, Date.now()));
  });
}
