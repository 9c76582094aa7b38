import { handle, json, otherMethods, readJson } from '@/lib/http/http';
import { getRuntime } from '@/lib/services/runtime';
import { settingLabel } from '@/lib/services/setting-labels';
import { settingsPatch } from '@/lib/services/settings-values';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, DELETE, OPTIONS } = otherMethods('GET', 'PATCH');

/** The settings in force, the environment's values beside them, and which ones the page changed. */
export function GET(request: Request) {
  return handle(request, async () => json(getRuntime().settings.view()));
}

/** Changes settings (null: back to the environment's value); they apply from the next turn. */
export function PATCH(request: Request) {
  return handle(request, async () => {
    const patch = await readJson(request, settingsPatch, settingLabel);
    return json(getRuntime().settings.update(patch, Date.now()));
  });
}
