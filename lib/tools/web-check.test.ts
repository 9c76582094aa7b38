import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkSearxng } from './web';

/** The Settings page's test of a SearXNG address, each outcome in the words the page shows; the fetch is scripted. */

const answering = (body: string, status = 200) => {
  const asked: { url: string; accept: string | null }[] = [];
  const fetchImpl = (async (url: URL | string, init?: RequestInit) => {
    asked.push({ url: String(url), accept: new Headers(init?.headers).get('Accept') });
    return new Response(body, { status, headers: { 'Content-Type': 'application/json' } });
  }) as typeof fetch;
  return { fetchImpl, asked };
};

test('one search for "weather" as JSON, under the address given (with or without a final slash); the results counted', async () => {
  const body = JSON.stringify({
    results: [
      { title: 'Rain', url: 'https://a.example/', content: 'wet' },
      { title: 'Sun', url: 'https://b.example/', content: 'dry' },
    ],
  });
  const { fetchImpl, asked } = answering(body);
  assert.deepEqual(await checkSearxng('http://127.0.0.1:8888/searx', fetchImpl), { ok: true, results: 2 });
  assert.deepEqual(await checkSearxng('http://127.0.0.1:8888/searx/', fetchImpl), { ok: true, results: 2 });
  assert.deepEqual(asked, [
    { url: 'http://127.0.0.1:8888/searx/search?q=weather&format=json', accept: 'application/json' },
    { url: 'http://127.0.0.1:8888/searx/search?q=weather&format=json', accept: 'application/json' },
  ]);
});

test('each failure in words: no answer, an HTTP status (403 with the usual cause), not SearXNG JSON', async () => {
  const refused = (async () => {
    throw new Error('connect ECONNREFUSED');
  }) as unknown as typeof fetch;
  assert.deepEqual(await checkSearxng('http://127.0.0.1:9/', refused), {
    ok: false,
    error: 'no answer from http://127.0.0.1:9/ (connect ECONNREFUSED)',
  });
  assert.deepEqual(await checkSearxng('http://s.example/', answering('', 403).fetchImpl), {
    ok: false,
    error: 'it answered HTTP 403 (is format=json enabled in its settings.yml?)',
  });
  assert.deepEqual(await checkSearxng('http://s.example/', answering('', 502).fetchImpl), { ok: false, error: 'it answered HTTP 502' });
  assert.deepEqual(await checkSearxng('http://s.example/', answering('<html>').fetchImpl), {
    ok: false,
    error: 'it answered, but not with SearXNG JSON (is format=json enabled in its settings.yml?)',
  });
});
