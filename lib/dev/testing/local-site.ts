import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import type { UrlPolicy, Resolver } from '@/lib/tools/url-check';

/**
 * A web site on 127.0.0.1 for a test file, reached under public names: "public.example"
 * resolves to it and the guard lets that one loopback address through; "internal.example"
 * and "router.example" resolve to private addresses and must never be reached.
 */
export function localSite(handler: http.RequestListener) {
  const server = http.createServer(handler);
  let port = 0;
  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));
  return {
    get port() {
      return port;
    },
    /** The guard's policy: ports 80, 443 and the site's own (or those given). */
    policy(ports: number[] = [80, 443, port]): UrlPolicy {
      return { allowedPorts: ports, resolver: localResolver, allowAddress: (a: string) => a === '127.0.0.1' };
    },
  };
}

export const localResolver: Resolver = async (host) => {
  if (host === 'public.example') return [{ address: '127.0.0.1', family: 4 }];
  if (host === 'internal.example') return [{ address: '192.168.1.5', family: 4 }];
  if (host === 'router.example') return [{ address: '192.168.1.1', family: 4 }];
  throw new Error('ENOTFOUND');
};
