import { HearthError } from '@/lib/shared/errors';

/**
 * A tool server's secrets as the API shows them: never their value. env and headers are
 * secrets whole; `args`, `url` and the server's stderr lines often hold tokens too (`--token=…`,
 * `?key=…`, `https://user:pass@…`, "starting with key sk-live-…"), so the parts of them that look
 * like one are masked. What the page sends back masked keeps the stored value only while the
 * server is the same one: a changed URL (or command) must be given its secrets again, so a
 * stored token never follows an edit to a new address.
 */

/** What the API shows instead of a secret. */
export const MASK = '••••••';

/** Names of things that hold secrets, as keys of a query, a flag or a line of output. */
const SECRET_NAME =
  '(?:api[-_]?key|access[-_]?key|secret|token|passw(?:or)?d|pwd|auth|credentials?|bearer|session|cookie|private[-_]?key|key)';

const PATTERNS: RegExp[] = [
  // user:password@ in a URL
  /(?<=\/\/[^:/@\s]+:)[^@/\s]+(?=@)/g,
  // name=value, name: value, --name value (value up to a separator)
  new RegExp(
    `(?<=(?<![A-Za-z])${SECRET_NAME}[A-Za-z0-9_-]*["']?\\s*(?:=|:|\\s)\\s*["']?)(?!${MASK}|(?:Bearer|Basic)\\s)[^\\s&"',;]{4,}`,
    'gi',
  ),
  // "Bearer abc…", "Basic abc…"
  /(?<=\b(?:Bearer|Basic)\s+)[^\s"',;]+/gi,
  // The shapes of well-known providers' keys.
  /\b(?:sk|pk|rk|ghp|gho|ghu|ghs|ghr|github_pat|glpat|xox[abprs]|hf|AKIA|AIza)[-_][-_A-Za-z0-9]{8,}|\bAKIA[A-Z0-9]{12,}/g,
  // Any long run of letters and digits with both in it (a key, a JWT, a hash used as a secret).
  /[A-Za-z0-9_\-+=.]{32,}/g,
];

const looksRandom = (s: string) => /[A-Za-z]/.test(s) && /[0-9]/.test(s);

/** `text` with every known secret (4 characters or more) and everything shaped like one replaced by MASK. */
export function maskSecrets(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const secret of [...known].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(MASK);
  }
  PATTERNS.forEach((pattern, i) => {
    const last = i === PATTERNS.length - 1;
    out = out.replace(pattern, (m) => (last && !looksRandom(m) ? m : MASK));
  });
  return out;
}

type Secretive = {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
};

/** The values of a server's env and headers: masked wherever they appear. */
export const knownSecrets = (server: Secretive): string[] => [...Object.values(server.env ?? {}), ...Object.values(server.headers ?? {})];

/** A flag that names a secret: the argument after it is one (`--token abc`). */
const SECRET_FLAG = new RegExp(`^--?(?:[A-Za-z0-9_-]*[_-])?${SECRET_NAME}(?:[_-][A-Za-z0-9_-]*)?$`, 'i');

const maskArgs = (args: string[], known: string[]) =>
  args.map((a, i) => (i > 0 && SECRET_FLAG.test(args[i - 1]) && a !== '' ? MASK : maskSecrets(a, known)));

const maskMap = (m?: Record<string, string>) => (m ? Object.fromEntries(Object.keys(m).map((k) => [k, MASK])) : undefined);

/** A server's entry as the API shows it. */
export function maskServer<T extends Secretive>(server: T): T {
  const known = knownSecrets(server);
  return {
    ...server,
    ...(server.env ? { env: maskMap(server.env) } : {}),
    ...(server.headers ? { headers: maskMap(server.headers) } : {}),
    ...(server.args ? { args: maskArgs(server.args, known) } : {}),
    ...(server.url ? { url: maskSecrets(server.url, known) } : {}),
  };
}

const again = (what: string, why: string) =>
  new HearthError('bad_request', `${what} was sent masked, but ${why}: type it again (a stored secret never moves to another server).`, {
    field: 'server',
  });

/**
 * A server's new entry from the page, its masked parts given back their stored values, but only
 * while it is the same server: a masked `url` or arg stands for the stored one only where it
 * masks to exactly what was shown; a masked env value only while the command and its arguments
 * are unchanged, a masked header only while the URL is.
 */
export function restoreSecrets<T extends Secretive>(next: T, previous: Secretive | undefined): T {
  const shown = previous ? maskServer(previous) : undefined;
  const hasMask = (v: string) => v.includes(MASK);
  let url = next.url;
  if (url !== undefined && hasMask(url)) {
    if (url !== shown?.url) throw again('The URL', 'it was also changed');
    url = previous!.url;
  }
  let args = next.args;
  if (args?.some(hasMask)) {
    args = args.map((a, i) => {
      if (!hasMask(a)) return a;
      if (shown?.args?.[i] !== a) throw again(`Argument ${i + 1}`, 'it is not the argument that was stored there');
      return previous!.args![i];
    });
  }
  const sameProgram =
    previous?.command !== undefined &&
    next.command === previous.command &&
    JSON.stringify(args ?? []) === JSON.stringify(previous.args ?? []);
  const sameAddress = previous?.url !== undefined && url === previous.url;
  const keep = (m: Record<string, string> | undefined, old: Record<string, string> | undefined, same: boolean, what: string) =>
    m
      ? Object.fromEntries(
          Object.entries(m).map(([k, v]) => {
            if (v !== MASK) return [k, v];
            if (!same) throw again(`${what} ${k}`, what === 'Header' ? 'the URL changed' : 'the command or its arguments changed');
            if (old?.[k] === undefined) throw again(`${what} ${k}`, 'nothing is stored for it');
            return [k, old[k]];
          }),
        )
      : undefined;
  return {
    ...next,
    ...(url !== undefined ? { url } : {}),
    ...(args !== undefined ? { args } : {}),
    ...(next.env ? { env: keep(next.env, previous?.env, sameProgram, 'Environment variable') } : {}),
    ...(next.headers ? { headers: keep(next.headers, previous?.headers, sameAddress, 'Header') } : {}),
  };
}
