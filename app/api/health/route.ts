import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { errorStatus, type ErrorCode } from '@/lib/shared/errors';
import { ModelPool } from '@/lib/models/pool';
import type { ModelHealth } from '@/lib/models/types';
import { speechHealth } from '@/lib/services/speech';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The state of Hearth and its model server. Healthy is 200; otherwise the status says what
 * failed, so a monitor or a container health check can read it without parsing: 503 when the
 * database or the model server cannot be reached (or the model is still loading), 502 when the
 * model server answers with an error. With several model servers, Hearth is healthy while one
 * of them is up; `servers` says how each one is. The body always carries the report, plus the
 * usual `error` when something failed.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.health, async ({ rt }) => {
    const { store, models, toolServers } = rt;
    let db = false;
    try {
      await store.countThreads();
      db = true;
    } catch {
      db = false;
    }
    // Every server, asked now; `model` sums them up (for one server it is that server).
    const [servers, speech, vectors] = await Promise.all([
      models.refresh(),
      speechHealth(rt),
      store.vectorSearchMethod().catch(() => null),
    ]);
    const health = ModelPool.combine(servers);
    // The user's MCP servers: each one's state; one that failed does not make Hearth unhealthy.
    const mcp = toolServers.hub.statuses().map((s) => ({
      name: s.name,
      transport: s.transport,
      state: s.state,
      tools: s.tools.length,
      ...(s.error ? { error: s.error } : {}),
    }));
    const report = {
      ok: db && health.reachable,
      db,
      engine: store.place.engine,
      vectors,
      model: health,
      servers,
      toolServers: mcp,
      speech,
    };
    const problem = healthProblem(db, health);
    if (!problem) return reply(report);
    return reply({ ...report, error: { code: problem.code, message: problem.message } }, errorStatus[problem.code]);
  }),
);

function healthProblem(db: boolean, health: ModelHealth): { code: ErrorCode; message: string } | null {
  if (!db) return { code: 'db_unavailable', message: 'The database cannot be read. The details are in the server log.' };
  if (health.reachable) return null;
  // No answer at all, or llama-server's 503 while it loads the model: unreachable for now.
  if (health.answeredStatus === undefined || health.answeredStatus === 503) {
    return {
      code: 'model_unreachable',
      message: `The model server at ${health.url} cannot be reached or is still loading (${health.error ?? 'no answer'}).`,
    };
  }
  return { code: 'model_error', message: `The model server at ${health.url} answered with an error (${health.error}).` };
}
