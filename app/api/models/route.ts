import { handle, json, otherMethods } from '@/lib/http/http';
import { availableModels } from '@/lib/services/models';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');

/** Every model every model server offers, with its load state (router mode) and what is known of it; servers that did not answer are listed apart. */
export function GET(request: Request) {
  return handle(request, async () => {
    return json(await availableModels(getRuntime()));
  });
}
