import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A SearXNG-shaped stand-in: GET /search?q=…&format=json answers like SearXNG's JSON API.
 * Results are made from the query, so tests can check they reached the answer. A query
 * containing "ratelimit" answers 429; "nothing" answers with no results.
 */
export type SearxDouble = { url: string; queries: string[]; close(): Promise<void> };

export function searxResults(q: string) {
  const slug =
    q
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'query';
  return {
    query: q,
    number_of_results: 2,
    results: [
      {
        url: `https://example.org/${slug}`,
        title: `Latest on ${q}`,
        content: `Fresh facts about ${q}: the figure today is 42.`,
        engine: 'double',
        engines: ['double'],
        score: 1,
        category: 'general',
      },
      {
        url: `https://news.example.com/${slug}`,
        title: `${q} — news`,
        content: `More about ${q}.`,
        engine: 'double',
        score: 0.5,
        category: 'general',
      },
      { title: 'broken entry without url' },
    ],
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [],
  };
}

export async function startSearxDouble(port = 0, host = '127.0.0.1'): Promise<SearxDouble> {
  const queries: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://searx');
    if (url.pathname !== '/search') {
      res.writeHead(404).end('not found');
      return;
    }
    const q = url.searchParams.get('q') ?? '';
    queries.push(q);
    if (url.searchParams.get('format') !== 'json') {
      res.writeHead(403).end('format not allowed');
      return;
    }
    if (/ratelimit/i.test(q)) {
      res.writeHead(429).end('Too Many Requests');
      return;
    }
    const body = /nothing/i.test(q) ? { query: q, results: [] } : searxResults(q);
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(port, host, r));
  const p = (server.address() as AddressInfo).port;
  return { url: `http://${host}:${p}`, queries, close: () => new Promise((r) => server.close(() => r())) };
}
