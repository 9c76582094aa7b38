import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { settingLabel } from '@/lib/services/setting-labels';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  /** The settings in force, the environment's values beside them, and which ones the page changed. */
  on(endpoints.getSettings, async ({ rt }) => reply(await rt.settings.view())),
  /** Changes settings (null: back to the environment's value); they apply from the next turn. */
  on(endpoints.patchSettings, async ({ body, rt }) => reply(await rt.settings.update(await body(), Date.now())), {
    labels: settingLabel,
  }),
);
