import { json, handle } from '@/lib/api/http';
import { getRuntime } from '@/lib/server/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export function GET() {
  return handle(async () => {
    const { store, model } = getRuntime();
    let db = false;
    try {
      store.countThreads();
      db = true;
    } catch {
      db = false;
    }
    const health = await model.health();
    return json({ ok: db && health.reachable, db, model: health }, db ? 200 : 503);
  });
}
