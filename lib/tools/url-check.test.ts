import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressRefusal, checkUrl, parseIpv6, type Resolver } from './url-check';

// The URL check's decision is tested on addresses, with a stub resolver: nothing here connects.
const stub =
  (map: Record<string, string[]>): Resolver =>
  async (host) => {
    const addrs = map[host];
    if (!addrs) throw new Error('ENOTFOUND');
    return addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
const policy = {
  allowedPorts: [80, 443],
  resolver: stub({
    'example.com': ['93.184.215.14'],
    'evil.example': ['10.0.0.7'],
    'mixed.example': ['93.184.215.14', '127.0.0.1'],
    'v6.example': ['::ffff:169.254.169.254'],
  }),
};

test('internal addresses are refused in every spelling', async () => {
  const refused = [
    'http://127.0.0.1/',
    'http://localhost/',
    'http://foo.localhost/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://127.1/',
    'http://127.0.1/',
    'http://017700000001/',
    'http://0/',
    'http://0.0.0.0/',
    'http://10.1.2.3/',
    'http://172.16.5.4/',
    'http://172.31.255.255/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://100.100.100.200/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://[::1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[fd00:ec2::254]/',
    'http://[ff02::1]/',
    'http://[64:ff9b::10.0.0.1]/',
    'http://[2002:7f00:1::]/',
    'http://metadata.google.internal/',
    'http://printer.local/',
    'http://intranet/',
    'http://evil.example/',
    'http://mixed.example/',
    'http://v6.example/',
    'http://[0:0:0:0:0:ffff:a00:1]/',
  ];
  for (const url of refused) {
    const d = await checkUrl(url, policy);
    assert.equal(d.ok, false, `${url} should be refused`);
  }
});

test('public addresses, schemes and ports', async () => {
  const ok = await checkUrl('https://example.com/page', policy);
  assert.ok(ok.ok && ok.address === '93.184.215.14');
  assert.ok((await checkUrl('http://93.184.215.14/', policy)).ok);
  assert.ok((await checkUrl('http://[2606:2800:220:1::]/', policy)).ok);
  for (const [url, why] of [
    ['ftp://example.com/', /only http/],
    ['file:///etc/passwd', /only http/],
    ['http://example.com:8080/', /port 8080 is not allowed/],
    ['http://user:pw@example.com/', /user name/],
    ['http://nowhere.example/', /could not be resolved/],
    ['not a url', /not a valid URL/],
  ] as const) {
    const d = await checkUrl(url, policy);
    assert.ok(!d.ok && why.test(d.reason), `${url}: ${!d.ok ? d.reason : 'allowed'}`);
  }
  assert.ok((await checkUrl('http://example.com:8080/', { ...policy, allowedPorts: [8080] })).ok);
});

test('address classification', () => {
  assert.equal(addressRefusal('8.8.8.8'), null);
  assert.match(addressRefusal('198.18.0.1')!, /benchmark/);
  assert.match(addressRefusal('::ffff:10.0.0.1')!, /private/);
  assert.match(addressRefusal('::ffff:0:7f00:1')!, /loopback/, 'IPv4-translated (::ffff:0:0/96) is judged as its IPv4 address');
  assert.match(addressRefusal('::ffff:0:808:808')!, /IPv4-translated/, 'and is never fetched, even for a public one');
  assert.match(addressRefusal('64:ff9b:1::a00:1')!, /local-use NAT64/);
  assert.match(addressRefusal('64:ff9b:1:ffff::808:808')!, /local-use NAT64/);
  assert.deepEqual(parseIpv6('::1'), [0, 0, 0, 0, 0, 0, 0, 1]);
  assert.equal(parseIpv6('1::2::3'), null);
});
