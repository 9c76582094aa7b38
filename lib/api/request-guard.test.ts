import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requestRefusal } from './request-guard';

const local = { listenHost: '127.0.0.1', allowedHosts: [] };

test('on loopback only loopback host names are served (DNS rebinding)', () => {
  for (const host of ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000', 'localhost']) {
    assert.equal(requestRefusal({ method: 'GET', host, origin: null }, local), null, host);
  }
  assert.match(requestRefusal({ method: 'GET', host: 'evil.example:3000', origin: null }, local)!, /does not answer/);
  assert.equal(requestRefusal({ method: 'GET', host: 'hearth.lan:3000', origin: null }, { listenHost: '127.0.0.1', allowedHosts: ['hearth.lan'] }), null);
});

test('exposed on purpose, any host is served unless a list is given', () => {
  assert.equal(requestRefusal({ method: 'GET', host: '192.168.1.5:3000', origin: null }, { listenHost: '0.0.0.0', allowedHosts: [] }), null);
  assert.ok(requestRefusal({ method: 'GET', host: 'evil.example', origin: null }, { listenHost: '0.0.0.0', allowedHosts: ['hearth.lan'] }));
});

test('writes from another site are refused; same-origin writes and GETs pass', () => {
  assert.match(requestRefusal({ method: 'POST', host: '127.0.0.1:3000', origin: 'https://evil.example' }, local)!, /another site/);
  assert.equal(requestRefusal({ method: 'POST', host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' }, local), null);
  assert.equal(requestRefusal({ method: 'POST', host: '127.0.0.1:3000', origin: null }, local), null);
  assert.equal(requestRefusal({ method: 'GET', host: '127.0.0.1:3000', origin: 'https://evil.example' }, local), null);
});
