import dns from 'node:dns/promises';
import net from 'node:net';

/**
 * The SSRF check for fetching pages a model names. A URL is allowed only when it is http(s),
 * on an allowed port, its host is not an internal name, and every address its name resolves
 * to is public. The caller connects to the address checked here (never resolving again), and
 * checks every redirect the same way. Odd IPv4 spellings (decimal, octal, hex, short forms)
 * are normalised by the WHATWG URL parser before the check, so 2130706433, 0x7f.1 and
 * 0177.0.0.1 are all seen as 127.0.0.1.
 */

export type Resolver = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

export type Lookup = (hostname: string, options: { all: true; verbatim: boolean }) => Promise<{ address: string; family: number }[]>;

/** A resolver over a system lookup: every address of the name, in the order the system gives them. */
export function resolverOver(lookup: Lookup): Resolver {
  return async (hostname) => {
    const rows = await lookup(hostname, { all: true, verbatim: true });
    return rows.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
  };
}

export const systemResolver: Resolver = resolverOver(dns.lookup);

export type UrlPolicy = {
  allowedPorts: readonly number[];
  resolver?: Resolver;
  /** Test seam: addresses to treat as public (the local stand-in servers). */
  allowAddress?: (address: string) => boolean;
};

export type UrlDecision = { ok: true; url: URL; address: string; family: 4 | 6 } | { ok: false; reason: string };

const IPV4_BLOCKS: [string, number, string][] = [
  // an empty base reads as 0.0.0.0 too
  ['0.0.0.0', 8, 'an unspecified ("this network") address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a carrier-grade NAT address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local (cloud metadata) address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'a special-purpose address'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.88.99.0', 24, 'a relay address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a benchmarking address'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved or broadcast address'],
];

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/** Why an IPv4 address, as a 32-bit number, must not be fetched, or null when it is public. */
function ipv4Reason(n: number): string | null {
  for (const [base, bits, reason] of IPV4_BLOCKS) {
    const size = 2 ** (32 - bits);
    const start = ipv4ToInt(base);
    if (n >= start && n < start + size) return reason;
  }
  return null;
}

/** Parses an IPv6 address into eight 16-bit groups (handles :: and a trailing dotted IPv4). */
export function parseIpv6(ip: string): number[] | null {
  // a bracket anywhere but the ends makes no address either way
  let s = ip
    .replace(/^\[|\]$/g, '')
    .split('%')[0]
    .toLowerCase();
  // a dotted quad anywhere but the end makes no address either way
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    if (!net.isIPv4(v4[1])) return null;
    const n = ipv4ToInt(v4[1]);
    s = s.slice(0, -v4[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  // a third half leaves too few groups, refused below
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  // with one half, halves[1] is undefined and the tail empty anyway
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  // a count other than eight is refused below
  if (halves.length === 1 && missing !== 0) return null;
  if (halves.length === 2 && missing < 1) return null;
  // with one half, missing is 0 here
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  // the groups are eight by construction here; the test of each group decides
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

/** The IPv4 address held in groups `at` and `at + 1`, as a 32-bit number. */
function embeddedV4(g: number[], at: number): number {
  return g[at] * 0x10000 + g[at + 1];
}

function ipv6Reason(ip: string): string | null {
  const g = parseIpv6(ip);
  // every address net.isIPv6 accepts is read; kept as a guard
  if (!g) return 'an address that could not be read';
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return 'an unspecified address';
  if (zeroUpTo(7) && g[7] === 1) return 'a loopback address';
  if (zeroUpTo(5) && g[5] === 0xffff) return ipv4Reason(embeddedV4(g, 6)) ?? 'an IPv4-mapped address';
  if (zeroUpTo(6)) return 'an IPv4-compatible address';
  // ::ffff:0:0/96, IPv4-translated (SIIT): judged as the address it stands for, refused if public too (it reaches no one directly).
  if (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return ipv4Reason(embeddedV4(g, 6)) ?? 'an IPv4-translated address';
  // 64:ff9b:1::/48, local-use NAT64 (RFC 8215): a translator on the local network.
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'a local-use NAT64 address';
  if (g[0] === 0x64 && g[1] === 0xff9b) return ipv4Reason(embeddedV4(g, 6)) ?? 'a NAT64 address';
  if ((g[0] & 0xfe00) === 0xfc00) return 'a private (unique local) address';
  if ((g[0] & 0xffc0) === 0xfe80) return 'a link-local address';
  if ((g[0] & 0xffc0) === 0xfec0) return 'a site-local address';
  if ((g[0] & 0xff00) === 0xff00) return 'a multicast address';
  if (g[0] === 0x2002) return ipv4Reason(embeddedV4(g, 1)) ? 'a 6to4 address wrapping an internal one' : null;
  if (g[0] === 0x2001 && g[1] === 0) return 'a Teredo tunnel address';
  if (g[0] === 0x2001 && g[1] === 0xdb8) return 'a documentation address';
  // 100::/64: the first group 0100, the next three zero.
  if (g[0] === 0x100 && g.slice(1, 4).every((x) => x === 0)) return 'a discard address';
  return null;
}

/** Why an address must not be fetched, or null when it is public. */
export function addressRefusal(address: string): string | null {
  if (net.isIPv4(address)) return ipv4Reason(ipv4ToInt(address));
  // a bracket anywhere but the ends makes no address either way
  if (net.isIPv6(address.replace(/^\[|\]$/g, ''))) return ipv6Reason(address);
  return 'not an IP address';
}

const INTERNAL_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/i;
// Cloud metadata services by name. Google's (metadata.google.internal) and the bare names
// (metadata, instance-data) are refused above already: a .internal name, a name without a dot.
const METADATA_NAMES = new Set(['metadata.azure.com']);

/** Checks one URL (and resolves its host once); the answer names the address to connect to. */
export async function checkUrl(raw: string, policy: UrlPolicy): Promise<UrlDecision> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'that is not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'only http and https pages can be fetched' };
  if (url.username || url.password) return { ok: false, reason: 'URLs with a user name or password are refused' };
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  if (!policy.allowedPorts.includes(port))
    return { ok: false, reason: `port ${port} is not allowed (allowed: ${policy.allowedPorts.join(', ')})` };
  // URL only puts brackets at the ends of a hostname
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (!host) return { ok: false, reason: 'the URL has no host' };

  const literal = net.isIP(host);
  if (!literal) {
    if (INTERNAL_NAMES.test(host) || METADATA_NAMES.has(host) || !host.includes('.')) {
      return { ok: false, reason: `${host} is an internal host name` };
    }
  }
  let addresses: { address: string; family: 4 | 6 }[];
  if (literal) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await (policy.resolver ?? systemResolver)(host);
    } catch (err) {
      return { ok: false, reason: `the name ${host} could not be resolved (${(err as Error).message})` };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: `the name ${host} has no address` };
  for (const a of addresses) {
    if (policy.allowAddress?.(a.address)) continue;
    const why = addressRefusal(a.address);
    if (why) return { ok: false, reason: `${host} points to ${a.address}, ${why}; only public addresses can be fetched` };
  }
  return { ok: true, url, address: addresses[0].address, family: addresses[0].family };
}
