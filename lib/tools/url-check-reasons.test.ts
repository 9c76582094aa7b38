import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressRefusal, checkUrl, parseIpv6, resolverOver, systemResolver, type Resolver } from './url-check';

/**
 * The SSRF check's reasons, address by address at the edges of each block (the first and last
 * address inside, the first outside), IPv6 spellings read to their eight groups, and each
 * refusal of a URL in the words the model reads.
 */

test('each IPv4 block by its edges, with its reason', () => {
  const cases: [string, string | null][] = [
    ['0.0.0.0', 'an unspecified ("this network") address'],
    ['0.255.255.255', 'an unspecified ("this network") address'],
    ['1.0.0.0', null],
    ['10.255.255.255', 'a private address'],
    ['11.0.0.0', null],
    ['100.63.255.255', null],
    ['100.64.0.0', 'a carrier-grade NAT address'],
    ['100.127.255.255', 'a carrier-grade NAT address'],
    ['100.128.0.0', null],
    ['127.0.0.1', 'a loopback address'],
    ['169.254.169.254', 'a link-local (cloud metadata) address'],
    ['172.15.255.255', null],
    ['172.16.0.0', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['172.32.0.0', null],
    ['192.0.0.255', 'a special-purpose address'],
    ['192.0.1.0', null],
    ['192.0.2.0', 'a documentation address'],
    ['192.88.99.1', 'a relay address'],
    ['192.168.255.255', 'a private address'],
    ['198.17.255.255', null],
    ['198.18.0.0', 'a benchmarking address'],
    ['198.19.255.255', 'a benchmarking address'],
    ['198.20.0.0', null],
    ['198.51.100.7', 'a documentation address'],
    ['203.0.113.255', 'a documentation address'],
    ['203.0.114.0', null],
    ['223.255.255.255', null],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.255', 'a multicast address'],
    ['240.0.0.0', 'a reserved or broadcast address'],
    ['255.255.255.255', 'a reserved or broadcast address'],
    ['93.184.215.14', null],
  ];
  for (const [address, reason] of cases) assert.equal(addressRefusal(address), reason, address);
});

test('IPv6 spellings are read to their eight groups; what is not an address is null', () => {
  assert.deepEqual(parseIpv6('::'), [0, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(parseIpv6('::1'), [0, 0, 0, 0, 0, 0, 0, 1]);
  assert.deepEqual(parseIpv6('[2001:DB8::a:b]'), [0x2001, 0xdb8, 0, 0, 0, 0, 0xa, 0xb]);
  assert.deepEqual(parseIpv6('fe80::1%eth0'), [0xfe80, 0, 0, 0, 0, 0, 0, 1]);
  assert.deepEqual(parseIpv6('::ffff:10.1.2.3'), [0, 0, 0, 0, 0, 0xffff, 0x0a01, 0x0203]);
  assert.deepEqual(parseIpv6('1:2:3:4:5:6:7:8'), [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(parseIpv6('1::'), [1, 0, 0, 0, 0, 0, 0, 0]);
  for (const bad of [
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    '1:2:3:4:5:6:7::8',
    '12345::',
    'g::1',
    '::ffff:300.1.2.3',
    '1:2:3:4:5:6:7:8::',
  ]) {
    assert.equal(parseIpv6(bad), null, bad);
  }
});

test('each IPv6 kind with its reason; an embedded IPv4 address is judged as itself', () => {
  const cases: [string, string | null][] = [
    ['::', 'an unspecified address'],
    ['::1', 'a loopback address'],
    ['::2', 'an IPv4-compatible address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:8.8.8.8', 'an IPv4-mapped address'],
    ['[::ffff:c0a8:101]', 'a private address'],
    ['64:ff9b::a00:1', 'a private address'],
    ['64:ff9b::808:808', 'a NAT64 address'],
    ['fc00::1', 'a private (unique local) address'],
    ['fdff::1', 'a private (unique local) address'],
    ['fe80::1', 'a link-local address'],
    ['febf::1', 'a link-local address'],
    ['fec0::1', 'a site-local address'],
    ['ff02::1', 'a multicast address'],
    ['2002:a00:1::', 'a 6to4 address wrapping an internal one'],
    ['2002:808:808::', null],
    ['2001:0:1::1', 'a Teredo tunnel address'],
    ['2001:db8::1', 'a documentation address'],
    ['2001:db9::1', null],
    ['100::', 'a discard address'],
    ['100::1:0:0:0', 'a discard address'],
    ['100:0:0:1::', null],
    ['2606:4700::1111', null],
    ['not-an-address', 'not an IP address'],
  ];
  for (const [address, reason] of cases) assert.equal(addressRefusal(address), reason, address);
});

test('each refusal of a URL, in the words the model reads', async () => {
  const resolver: Resolver = async (host) => {
    if (host === 'empty.example') return [];
    if (host === 'mixed.example')
      return [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ];
    if (host === 'public.example') return [{ address: '2606:4700::1111', family: 6 }];
    throw new Error('ENOTFOUND');
  };
  const policy = { allowedPorts: [80, 443], resolver };
  const reason = async (url: string) => {
    const d = await checkUrl(url, policy);
    return d.ok ? `ok ${d.address} ${d.family}` : d.reason;
  };
  assert.equal(await reason('not a url'), 'that is not a valid URL');
  assert.equal(await reason('ftp://public.example/'), 'only http and https pages can be fetched');
  assert.equal(await reason('http://user:pw@public.example/'), 'URLs with a user name or password are refused');
  assert.equal(await reason('http://public.example:8080/'), 'port 8080 is not allowed (allowed: 80, 443)');
  assert.equal(await reason('https://public.example/'), 'ok 2606:4700::1111 6');
  assert.equal(await reason('http://printer/'), 'printer is an internal host name');
  assert.equal(await reason('http://nas.home.arpa/'), 'nas.home.arpa is an internal host name');
  assert.equal(await reason('http://metadata.google.internal/'), 'metadata.google.internal is an internal host name');
  assert.equal(await reason('http://gone.example/'), 'the name gone.example could not be resolved (ENOTFOUND)');
  assert.equal(await reason('http://empty.example/'), 'the name empty.example has no address');
  assert.equal(
    await reason('http://mixed.example/'),
    'mixed.example points to 10.0.0.1, a private address; only public addresses can be fetched',
  );
  assert.equal(await reason('http://[::1]/'), '::1 points to ::1, a loopback address; only public addresses can be fetched');
  assert.equal(await reason('http://PUBLIC.EXAMPLE./'), 'ok 2606:4700::1111 6', 'a trailing dot and capitals are the same name');
  assert.equal(await reason('http://93.184.215.14/'), 'ok 93.184.215.14 4');
  assert.equal(await reason('http://[2606:4700::1]/'), 'ok 2606:4700::1 6', 'an IPv6 literal is connected to as IPv6, unresolved');
  const httpsOn80 = await checkUrl('https://public.example/', { ...policy, allowedPorts: [80] });
  assert.equal(httpsOn80.ok ? 'ok' : httpsOn80.reason, 'port 443 is not allowed (allowed: 80)', 'https without a port is port 443');
  const allowed = await checkUrl('http://mixed.example/', { ...policy, allowAddress: (a) => a === '10.0.0.1' });
  assert.equal(allowed.ok, true, 'an address the policy allows (a test stand-in) is not refused');
});

test('more spellings and kinds at their edges: embedded IPv4 with every octet, one group left out, look-alikes of NAT64, documentation and discard', () => {
  assert.deepEqual(parseIpv6('::ffff:10.11.12.13'), [0, 0, 0, 0, 0, 0xffff, 0x0a0b, 0x0c0d]);
  assert.deepEqual(parseIpv6('1:2:3:4:5:6::7'), [1, 2, 3, 4, 5, 6, 0, 7], ':: may stand for a single group');
  const cases: [string, string | null][] = [
    ['::ffff:192.0.0.1', 'a special-purpose address'],
    ['2002:c000:1::', 'a 6to4 address wrapping an internal one'],
    ['64::1', null],
    ['1:ff9b::1', null],
    ['3fff:db8::1', null],
    ['200::', null],
  ];
  for (const [address, reason] of cases) assert.equal(addressRefusal(address), reason, address);
});

test('a user name alone is refused too; a name under home.arpa, or Azure’s metadata name, is internal; a host of a dot is none', async () => {
  const policy = { allowedPorts: [80, 443], resolver: async () => [{ address: '93.184.215.14', family: 4 as const }] };
  const reason = async (url: string) => {
    const d = await checkUrl(url, policy);
    return d.ok ? 'ok' : d.reason;
  };
  assert.equal(await reason('http://user@public.example/'), 'URLs with a user name or password are refused');
  assert.equal(await reason('http://home.arpa/'), 'home.arpa is an internal host name');
  assert.equal(await reason('http://metadata.azure.com/'), 'metadata.azure.com is an internal host name');
  assert.equal(await reason('http://./'), 'the URL has no host');
});

test('the resolver asks the system for every address, in its order, and names each family', async () => {
  const asked: unknown[] = [];
  const resolve = resolverOver(async (hostname, options) => {
    asked.push([hostname, options]);
    return [
      { address: '2606:4700::1', family: 6 },
      { address: '93.184.215.14', family: 4 },
    ];
  });
  assert.deepEqual(await resolve('example.com'), [
    { address: '2606:4700::1', family: 6 },
    { address: '93.184.215.14', family: 4 },
  ]);
  assert.deepEqual(asked, [['example.com', { all: true, verbatim: true }]]);
});

test('the system resolver reads this machine’s own name for itself, each address with its family', async () => {
  const rows = await systemResolver('localhost');
  assert.ok(
    rows.some((r) => r.address === '127.0.0.1' && r.family === 4) || rows.some((r) => r.address === '::1' && r.family === 6),
    JSON.stringify(rows),
  );
  for (const r of rows) assert.equal(r.family, r.address.includes(':') ? 6 : 4, r.address);
});
