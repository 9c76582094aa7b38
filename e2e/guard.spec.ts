import { expect, test } from '@playwright/test';
import http from 'node:http';

function raw(method: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: 13000, method, path, headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

test('a rebound host name and a cross-site write are refused before any route runs', async () => {
  const rebound = await raw('GET', '/api/threads', { Host: 'evil.example:13000' });
  expect(rebound.status).toBe(403);
  expect(JSON.parse(rebound.body).error.code).toBe('forbidden');
  const crossSite = await raw('POST', '/api/threads', {
    Host: '127.0.0.1:13000',
    Origin: 'https://evil.example',
    'Content-Type': 'application/json',
  });
  expect(crossSite.status).toBe(403);
  const ok = await raw('POST', '/api/threads', {
    Host: '127.0.0.1:13000',
    Origin: 'http://127.0.0.1:13000',
    'Content-Type': 'application/json',
  });
  expect(ok.status).toBe(201);
});
