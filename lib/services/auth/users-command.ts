import { roles, type Role } from '@/lib/contract/statuses';
import { HearthError, isHearthError } from '@/lib/shared/errors';
import type { People } from './people';

/**
 * `npm run users -- <command>`: the owner's hand on who may use this Hearth, from the shell of
 * the machine it runs on (with the same DATA_DIR as the server, also while it runs: a change
 * counts at the server's next request).
 */
export const USAGE = `npm run users -- <command>

  list                                       everyone, with their role
  add NAME --role owner|admin|member [--password-stdin]
  remove NAME                                their sessions end; what they kept stays on disk
  reset-password NAME [--password-stdin]     their sessions end
  set-role NAME owner|admin|member
  disable NAME | enable NAME                 a disabled person cannot log in; their sessions end

Without --password-stdin the password is asked for (not shown).`;

export async function usersCommand(
  argv: readonly string[],
  {
    people,
    readPassword,
    out,
    err,
  }: { people: People; readPassword: () => Promise<string>; out: (line: string) => void; err: (line: string) => void },
): Promise<number> {
  const [command, ...rest] = argv;
  const positional = rest.filter((a, i) => !a.startsWith('--') && rest[i - 1] !== '--role');
  const flag = (name: string) => {
    const i = rest.indexOf(name);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const role = (value: string | undefined): Role => {
    if (!roles.includes(value as Role)) throw new UsageError(`a role is one of ${roles.join(', ')}`);
    return value as Role;
  };
  const name = () => {
    if (!positional[0]) throw new UsageError('say whom: a username');
    return positional[0];
  };
  try {
    switch (command) {
      case 'list': {
        const everyone = await people.list();
        if (!everyone.length)
          out('No one yet: Hearth opens without a login on 127.0.0.1. Add the owner with: npm run users -- add NAME --role owner');
        for (const p of everyone)
          out(`${p.username.padEnd(24)} ${p.role.padEnd(7)} ${p.disabled ? 'disabled' : 'active'}${p.hasPassword ? '' : ' (no password)'}`);
        return 0;
      }
      case 'add': {
        const who = name();
        const r = role(flag('--role'));
        const first = (await people.count()) === 0;
        // Said before the password is asked for.
        if ((await people.list()).some((p) => p.username === who.trim().toLowerCase()))
          throw new HearthError('conflict', `There is already someone called ${who.trim().toLowerCase()}.`);
        if (first && r !== 'owner') throw new UsageError('the first person is the owner: add them with --role owner');
        const added = await people.add({ username: who, role: r, password: await readPassword() });
        out(`Added ${added.username} (${added.role}).${first ? ' From now on, Hearth needs a login.' : ''}`);
        return 0;
      }
      case 'remove':
        await people.remove(name());
        out(`Removed ${name().toLowerCase()}; their sessions have ended.`);
        return 0;
      case 'reset-password':
        await people.resetPassword(name(), await readPassword());
        out(`New password set for ${name().toLowerCase()}; their sessions have ended.`);
        return 0;
      case 'set-role': {
        const changed = await people.setRole(name(), role(positional[1]));
        out(`${changed.username} is now ${changed.role}.`);
        return 0;
      }
      case 'disable':
      case 'enable': {
        const changed = await people.setDisabled(name(), command === 'disable');
        out(`${changed.username} is ${changed.disabled ? 'disabled; their sessions have ended' : 'enabled'}.`);
        return 0;
      }
      default:
        out(USAGE);
        return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
    }
  } catch (e) {
    if (e instanceof UsageError) {
      err(`${e.message}.\n\n${USAGE}`);
      return 2;
    }
    if (isHearthError(e)) {
      err(e.message);
      return 1;
    }
    throw e;
  }
}

class UsageError extends Error {}
