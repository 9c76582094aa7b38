import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JSON_BODY, requestRefusal, type GuardConfig, type GuardedRequest } from './request-guard';

const local: GuardConfig = { listenHost: '127.0.0.1', allowedHosts: [] };
const code = (req: GuardedRequest, config = local, types = JSON_BODY) => requestRefusal(req, config, types)?.code ?? null;

test('on loopback only loopback host names are served (DNS rebinding)', () => {
  for (const host of ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000', 'localhost']) {
    assert.equal(requestRefusal({ method: 'GET', host, origin: null }, local), null, host);
  }
  assert.match(requestRefusal({ method: 'GET', host: 'evil.example:3000', origin: null }, local)!.message, /does not answer/);
  assert.equal(
    requestRefusal({ method: 'GET', host: 'hearth.lan:3000', origin: null }, { listenHost: '127.0.0.1', allowedHosts: ['hearth.lan'] }),
    null,
  );
});

test('a rebinding name is refused in every spelling that only looks like loopback', () => {
  for (const host of [
    '127.attacker.com',
    '127.attacker.com:3000',
    '127.0.0.1.nip.io:3000',
    '127.0.0.1@evil.com',
    '127.0.0.1@evil.com:3000',
    'localhost.evil.com',
    '127.1',
    '0x7f.0.0.1',
    '127.0.0.1:3000:80',
    '[::1].evil.com',
    'user@127.0.0.1',
    '',
  ]) {
    assert.equal(code({ method: 'GET', host, origin: null }), 'forbidden', host);
  }
  for (const host of ['127.0.0.1', '127.5.6.7:8080', 'LOCALHOST:3000', '[::1]'])
    assert.equal(code({ method: 'GET', host, origin: null }), null, host);
  assert.equal(
    code({ method: 'GET', host: 'hearth.lan.evil.com', origin: null }, { listenHost: '127.0.0.1', allowedHosts: ['hearth.lan'] }),
    'forbidden',
  );
});

test('an Origin of another scheme is another site', () => {
  const host = '127.0.0.1:3000';
  assert.equal(code({ method: 'POST', host, origin: 'https://127.0.0.1:3000' }), 'forbidden', 'https page writing to the http host');
  assert.equal(
    code({ method: 'POST', host, origin: 'http://127.0.0.1:3000', scheme: 'https' }),
    'forbidden',
    'http page writing to the https host',
  );
  assert.equal(
    code(
      { method: 'POST', host: 'hearth.lan', origin: 'https://hearth.lan', scheme: 'https' },
      { listenHost: '0.0.0.0', allowedHosts: [] },
    ),
    null,
    'behind a TLS proxy',
  );
});

test('exposed on purpose, any host is served unless a list is given', () => {
  assert.equal(
    requestRefusal({ method: 'GET', host: '192.168.1.5:3000', origin: null }, { listenHost: '0.0.0.0', allowedHosts: [] }),
    null,
  );
  assert.ok(
    requestRefusal({ method: 'GET', host: 'evil.example', origin: null }, { listenHost: '0.0.0.0', allowedHosts: ['hearth.lan'] }),
    'a host not on the list is refused',
  );
});

test('writes from another site are refused; same-origin writes and GETs pass', () => {
  assert.match(requestRefusal({ method: 'POST', host: '127.0.0.1:3000', origin: 'https://evil.example' }, local)!.message, /another site/);
  assert.equal(requestRefusal({ method: 'POST', host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' }, local), null);
  assert.equal(requestRefusal({ method: 'POST', host: '127.0.0.1:3000', origin: null }, local), null);
  assert.equal(requestRefusal({ method: 'GET', host: '127.0.0.1:3000', origin: 'https://evil.example' }, local), null);
});

test('Sec-Fetch-Site: a write the browser marks cross-site or same-site is refused, even with no Origin', () => {
  const host = '127.0.0.1:3000';
  for (const method of ['POST', 'PATCH', 'DELETE', 'PUT']) {
    assert.equal(code({ method, host, origin: null, fetchSite: 'cross-site' }), 'forbidden', method);
    assert.equal(code({ method, host, origin: null, fetchSite: 'same-site' }), 'forbidden', method);
    assert.equal(code({ method, host, origin: null, fetchSite: 'same-origin' }), null, method);
  }
  assert.equal(code({ method: 'GET', host, origin: null, fetchSite: 'cross-site' }), null, 'a cross-site GET (a link) is allowed');
  assert.equal(code({ method: 'POST', host, origin: 'null' }), 'forbidden', 'an opaque origin (sandboxed frame) is refused');
});

test('a write with a body must be JSON; the types a form can send without asking are refused', () => {
  const base = { method: 'POST', host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', hasBody: true };
  assert.equal(code({ ...base, contentType: 'application/json' }), null);
  assert.equal(code({ ...base, contentType: 'application/json; charset=utf-8' }), null);
  for (const type of [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    '',
    null,
    'application/jsonp',
  ]) {
    assert.equal(code({ ...base, contentType: type }), 'unsupported_type', String(type));
  }
  assert.equal(code({ ...base, hasBody: false, contentType: null }), null, 'a write without a body (cancel, delete) needs no type');
  const upload = { pattern: /^multipart\/form-data\s*;/i, name: 'multipart' };
  assert.equal(code({ ...base, contentType: 'multipart/form-data; boundary=x' }, local, upload), null);
  assert.equal(code({ ...base, contentType: 'text/plain' }, local, upload), 'unsupported_type');
});
