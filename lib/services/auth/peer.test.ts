import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { installPeerStamp, peerAddress, PEER_HEADER } from './peer';
import { trustedUsername } from './trusted-header';

/**
 * The connection's address as Hearth stamps it on each request (peer.ts), and trusted-header
 * login over it: a real HTTP server, asked from two loopback addresses, one of them the proxy's.
 */

let server: http.Server;
let port: number;
/** What the server saw of each request: its peer and the username a trusted proxy at 127.0.0.2 vouches for. */
type Seen = { peer: string | null; vouched: string | null; stamp: string | null };

before(async () => {
  installPeerStamp();
  installPeerStamp(); // twice is once
  server = http.createServer((request, response) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(name, value);
    const seen: Seen = {
      peer: peerAddress(headers),
      vouched: trustedUsername(headers, { header: 'remote-user', proxies: ['127.0.0.2'] }),
      stamp: headers.get(PEER_HEADER),
    };
    response.end(JSON.stringify(seen));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A request from a loopback address of the caller's choosing, with these headers. */
function ask(from: string, headers: Record<string, string>): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: '/', localAddress: from, headers }, (response) => {
      let body = '';
      response.on('data', (c: Buffer) => (body += c.toString()));
      response.on('end', () => resolve(JSON.parse(body) as Seen));
    });
    request.on('error', reject);
    request.end();
  });
}

test('a request carries the address its connection came from; a copy the client sent is replaced', async () => {
  const seen = await ask('127.0.0.1', { [PEER_HEADER]: 'forged 10.0.0.1', 'x-forwarded-for': '127.0.0.2' });
  assert.equal(seen.peer, '127.0.0.1');
  assert.notEqual(seen.stamp, 'forged 10.0.0.1');
});

test('a stamp this process did not make names no one', () => {
  assert.equal(peerAddress(new Headers({ [PEER_HEADER]: 'guessed 127.0.0.2' })), null);
  assert.equal(peerAddress(new Headers()), null);
});

test('the trusted header is believed from the proxy’s address only, and never made up from a forged one', async () => {
  assert.equal((await ask('127.0.0.2', { 'remote-user': 'alice' })).vouched, 'alice');
  assert.equal((await ask('127.0.0.2', {})).vouched, null, 'the proxy named no one');
  const forged: Record<string, string>[] = [
    { 'remote-user': 'alice' },
    { 'remote-user': 'alice', 'x-forwarded-for': '127.0.0.2' },
    { 'remote-user': 'alice', [PEER_HEADER]: 'x 127.0.0.2' },
  ];
  for (const headers of forged) assert.equal((await ask('127.0.0.1', headers)).vouched, null, JSON.stringify(headers));
});
