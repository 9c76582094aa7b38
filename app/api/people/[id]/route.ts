import type { Role } from '@/lib/contract/statuses';
import { endpoints } from '@/lib/contract/endpoints';
import { noContent, on, reply, serve } from '@/lib/http/serve';
import type { Runtime } from '@/lib/services/runtime';
import { HearthError } from '@/lib/shared/errors';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The person of an id, when the asker may change them: an admin changes admins and members; only an owner changes an owner or makes one. */
async function changeable(rt: Runtime, id: string, newRole?: Role) {
  const target = await rt.auth.people.byId(id);
  if (!target) throw new HearthError('not_found', 'There is no person with that id.');
  if ((target.role === 'owner' || newRole === 'owner') && rt.person.role !== 'owner')
    throw new HearthError('forbidden', 'Only an owner may change an owner, or make one.');
  return target;
}

/** A person's role changed, their account disabled (their sessions end) or enabled, or their limits set. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.patchPerson, async ({ params: { id }, body, rt }) => {
    const { role, disabled, turnsPerDay, fuelPerTurn } = await body();
    const target = await changeable(rt, id, role);
    // Limits are the owner's word (an admin could otherwise lift their own): refused before anything changes.
    const limits = turnsPerDay !== undefined || fuelPerTurn !== undefined;
    if (limits && rt.person.role !== 'owner') throw new HearthError('forbidden', "Only this Hearth's owner sets people's limits.");
    const people = rt.auth.people;
    let changed = role ? await people.setRole(target.username, role) : target;
    if (disabled !== undefined) changed = await people.setDisabled(target.username, disabled);
    if (limits) changed = await people.setLimits(target.username, { turnsPerDay, fuelPerTurn });
    return reply(changed);
  }),
  on(endpoints.removePerson, async ({ params: { id }, rt }) => {
    await rt.auth.people.remove((await changeable(rt, id)).username);
    return noContent();
  }),
);
