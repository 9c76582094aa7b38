import 'server-only';
import type { ModelsReport } from '@/lib/contract/responses';
import { apiKeyFor } from '@/lib/shared/config';
import { HearthError } from '@/lib/shared/errors';
import { readGateScorecards, readScorecards } from '@/lib/services/scorecards';
import { listModels } from '@/lib/models/models';
import type { Runtime } from './runtime';

/** What the model servers of the settings in force list. */
const serversModels = ({ config, settings }: Pick<Runtime, 'config' | 'settings'>) =>
  listModels(
    settings.current().modelServers.map((s) => s.url),
    { apiKey: (url) => apiKeyFor(config, url) },
  );

/**
 * Every model the model servers of the settings in force offer (GET /api/models, the thread
 * picker's list), each with its eval scorecard and its gate judges' measurement when a report on
 * this machine has them, and the thumbs its answers got here.
 */
/** Whether this person may choose a model: the owner and admins any; members those the owner lets them (all when none are named). */
export function mayChoose(runtime: Pick<Runtime, 'settings' | 'person'>, id: string): boolean {
  const allowed = runtime.settings.current().memberModels;
  return runtime.person.role !== 'member' || allowed.length === 0 || allowed.includes(id);
}

export async function availableModels(runtime: Pick<Runtime, 'config' | 'settings' | 'store' | 'person'>): Promise<ModelsReport> {
  const all = await serversModels(runtime);
  const report = { ...all, models: all.models.filter((m) => mayChoose(runtime, m.id)) };
  const cards = readScorecards(runtime.config.HEARTH_EVAL_DIR);
  const gates = readGateScorecards(runtime.config.HEARTH_EVAL_DIR);
  const ratings = await runtime.store.ratingsByModel();
  return {
    ...report,
    models: report.models.map((m) => ({
      ...m,
      ...(cards.has(m.id) ? { scorecard: cards.get(m.id)! } : {}),
      ...(gates.has(m.id) ? { gate: gates.get(m.id)! } : {}),
      ...(ratings.has(m.id) ? { ratings: ratings.get(m.id)! } : {}),
    })),
  };
}

/**
 * A model a thread (or one answer) may ask for: one a server lists. Refused with its name
 * otherwise; when no server answered, it cannot be checked, and that is said instead.
 */
export async function requireModel(runtime: Pick<Runtime, 'config' | 'settings' | 'person'>, model: string): Promise<void> {
  if (!mayChoose(runtime, model))
    throw new HearthError(
      'forbidden',
      `This Hearth's owner has not let members choose "${model}": the models you may choose are in the picker.`,
    );
  // The servers' lists alone: the eval reports are the picker's, not the check's.
  const report = await serversModels(runtime);
  if (report.models.some((m) => m.id === model)) return;
  if (report.models.length === 0 && report.unreachable.length > 0) {
    throw new HearthError(
      'model_unreachable',
      `No model server answered, so Hearth cannot tell whether it offers "${model}": ${report.unreachable.map((u) => u.error).join('; ')}`,
    );
  }
  const offered = report.models.map((m) => m.id);
  throw new HearthError(
    'bad_request',
    `model: no model server offers "${model}"${offered.length ? ` (they offer ${offered.map((id) => `"${id}"`).join(', ')})` : ''}.`,
  );
}
