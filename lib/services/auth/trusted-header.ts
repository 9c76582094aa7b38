import { peerAddress } from '@/lib/services/auth/peer';

/**
 * Trusted-header login (docs/sharing.md): behind a reverse proxy that logs people in (Authelia,
 * Authentik, Tailscale serve), the proxy names the person in a header (Remote-User). Hearth
 * believes it only on a request whose connection comes from one of the configured proxy
 * addresses (lib/services/auth/peer.ts): from anywhere else the header is ignored, as any header is.
 */

export type TrustedHeader = { header: string; proxies: readonly string[] };

/** The username a trusted proxy vouches for, or null (no header set up, not from the proxy, or none given). */
export function trustedUsername(headers: Headers, trusted: TrustedHeader | null): string | null {
  if (!trusted) return null;
  const peer = peerAddress(headers);
  if (!peer || !trusted.proxies.includes(peer)) return null;
  const name = headers.get(trusted.header)?.trim();
  return name ? name : null;
}
