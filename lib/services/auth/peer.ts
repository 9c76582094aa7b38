import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';

/**
 * The address a request's connection comes from, for trusted-header login (a header believed
 * only from the reverse proxy's address). Next gives route handlers and the proxy a web Request
 * without its socket, and fills X-Forwarded-For only when the client sent none (so anyone can
 * forge it). At start (instrumentation.ts), Hearth therefore stamps each request as the HTTP
 * server receives it, before Next sees it: a header of its own set to a secret of this process
 * and the socket's address. A client cannot forge it (it does not know the secret), and a
 * request the stamp missed (one received before it was installed) has no valid stamp: no peer,
 * so no trusted header, so a login like anyone else's.
 */

export const PEER_HEADER = 'x-hearth-peer';
const key = Symbol.for('hearth.peer-stamp');
type Holder = { [key]?: string };

/** Server events that carry a request. */
const REQUEST_EVENTS = new Set(['request', 'checkContinue', 'checkExpectation', 'upgrade']);

/** Installs the stamp on every HTTP(S) server of this process (once). */
export function installPeerStamp(): void {
  const holder = globalThis as Holder;
  if (holder[key]) return;
  const secret = randomBytes(24).toString('base64url');
  holder[key] = secret;
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit;
    Server.prototype.emit = function emitStamped(this: http.Server, event: string | symbol, ...args: unknown[]) {
      const request = args[0] as http.IncomingMessage | undefined;
      if (typeof event === 'string' && REQUEST_EVENTS.has(event) && request?.headers) {
        // Header names arrive lower-cased, and repeated ones folded: one delete removes every copy a client sent.
        delete request.headers[PEER_HEADER];
        const address = request.socket?.remoteAddress;
        if (address) request.headers[PEER_HEADER] = `${secret} ${address}`;
      }
      return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
    } as typeof Server.prototype.emit;
  }
}

/** The address a request's connection came from, from the stamp; null when it has none that this process made. */
export function peerAddress(headers: Headers): string | null {
  const secret = (globalThis as Holder)[key];
  const stamp = headers.get(PEER_HEADER);
  if (!secret || !stamp) return null;
  const [given, address] = stamp.split(' ');
  if (!given || !address || given.length !== secret.length || !timingSafeEqual(Buffer.from(given), Buffer.from(secret))) return null;
  // An IPv4 client of a server listening on :: arrives as ::ffff:a.b.c.d.
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
}
