import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The scorecard's world: what its tools reach instead of the internet, so every run sees the
 * same facts. A SearXNG-shaped search over a fixed corpus, a small page server (the corpus's
 * pages, a guide, a music catalogue), and a fixed clock. All on 127.0.0.1, started by the
 * runner and stopped after it.
 */

/** Tuesday 1 December 2026, 09:30 UTC: the clock every run starts at. */
export const FIXED_NOW = Date.UTC(2026, 11, 1, 9, 30);

export type Song = { title: string; artist: string; genre: string; mood: string };

export const CATALOGUE: Song[] = [
  { title: 'Blue Harbour Night', artist: 'The Quiet Quartet', genre: 'jazz', mood: 'calm' },
  { title: 'Slow Rain on Lenox', artist: 'Mira Castell Trio', genre: 'jazz', mood: 'calm' },
  { title: 'Velvet Lanterns', artist: 'June Okafor', genre: 'jazz', mood: 'calm' },
  { title: 'Autumn in Second Position', artist: 'Paolo Reyes', genre: 'jazz', mood: 'calm' },
  { title: 'Moonlit Ferry', artist: 'The Quiet Quartet', genre: 'jazz', mood: 'calm' },
  { title: 'Low Tide Waltz', artist: 'Ines Varga', genre: 'jazz', mood: 'calm' },
  { title: 'Paper Cranes', artist: 'Mira Castell Trio', genre: 'jazz', mood: 'calm' },
  { title: 'Hot Pavement Strut', artist: 'Brassline', genre: 'jazz', mood: 'lively' },
  { title: 'Copper Sky Shuffle', artist: 'Brassline', genre: 'jazz', mood: 'lively' },
  { title: 'Neon Staircase', artist: 'Kid Marlow', genre: 'electronic', mood: 'lively' },
  { title: 'Glass Orchard', artist: 'Sella', genre: 'electronic', mood: 'calm' },
  { title: 'Northern Relay', artist: 'Kid Marlow', genre: 'electronic', mood: 'lively' },
  { title: 'Harvest of Small Things', artist: 'Ada Lind', genre: 'folk', mood: 'calm' },
  { title: 'The Ferryman Sings', artist: 'Ada Lind', genre: 'folk', mood: 'calm' },
  { title: 'Iron Bridge Road', artist: 'Tom Ashdown', genre: 'folk', mood: 'lively' },
];

type Doc = { path: string; title: string; content: string };

export const CORPUS: Doc[] = [
  {
    path: '/markets/bitcoin',
    title: 'Bitcoin price today',
    content: 'Bitcoin (BTC) trades at 61,234 US dollars today, 1 December 2026, up 2.1% in 24 hours.',
  },
  {
    path: '/markets/ethereum',
    title: 'Ethereum price today',
    content: 'Ethereum (ETH) trades at 3,456 US dollars today, 1 December 2026, down 0.8% in 24 hours.',
  },
  {
    path: '/sport/lyon-nantes',
    title: 'Lyon beat Nantes 3-1 last night',
    content: 'Olympique Lyonnais beat FC Nantes 3-1 on 30 November 2026; final score Lyon 3, Nantes 1.',
  },
  {
    path: '/weather/paris',
    title: 'Paris weather today',
    content: 'Paris today, 1 December 2026: light rain, 7 °C, wind 15 km/h from the west.',
  },
  {
    path: '/news/artemis',
    title: 'Artemis IV launch window moved',
    content: 'NASA moved the Artemis IV launch window to March 2027 after heat-shield tests, the agency said on 30 November 2026.',
  },
  {
    path: '/catalogue',
    title: 'Music catalogue: every song, by genre and mood',
    content: CATALOGUE.map((s) => `"${s.title}" by ${s.artist} (${s.genre}, ${s.mood})`).join('; '),
  },
];

export const GUIDE_PAGE = {
  path: '/guide.html',
  title: 'Repotting a fiddle-leaf fig',
  text: 'Repotting a fiddle-leaf fig takes three steps. First, water the plant a day before. Second, choose a pot only 5 cm wider than the old one. Third, keep it out of direct sun for two weeks afterwards.',
};

const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
const STOP = new Set('the a an of in on to is what how for and today latest me my now current'.split(' '));

/** SearXNG's JSON shape: the corpus pages that share the most words with the query. */
export function searchCorpus(q: string, pagesUrl: string) {
  const asked = new Set(words(q).filter((w) => !STOP.has(w)));
  const scored = CORPUS.map((d) => ({ d, score: words(`${d.title} ${d.content}`).filter((w) => asked.has(w)).length }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 3);
  return {
    query: q,
    number_of_results: scored.length,
    results: scored.map(({ d }, i) => ({
      url: `${pagesUrl}${d.path}`,
      title: d.title,
      content: d.content,
      engine: 'corpus',
      score: 1 - i / 10,
      category: 'general',
    })),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [],
  };
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${escape(title)}</title></head><body><article><h1>${escape(title)}</h1>${body}</article></body></html>`;

export type Standins = { searchUrl: string; pagesUrl: string; pagesPort: number; searches: string[]; close(): Promise<void> };

export async function startStandins(): Promise<Standins> {
  const searches: string[] = [];
  let pagesUrl = '';
  const pages = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://pages').pathname;
    const send = (status: number, html: string) => res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
    if (path === GUIDE_PAGE.path) return send(200, page(GUIDE_PAGE.title, `<p>${escape(GUIDE_PAGE.text)}</p>`));
    if (path === '/catalogue') {
      const rows = CATALOGUE.map(
        (s) => `<tr><td>${escape(s.title)}</td><td>${escape(s.artist)}</td><td>${s.genre}</td><td>${s.mood}</td></tr>`,
      ).join('');
      return send(
        200,
        page(
          'Music catalogue',
          `<p>Every song in the catalogue.</p><table><tr><th>Title</th><th>Artist</th><th>Genre</th><th>Mood</th></tr>${rows}</table>`,
        ),
      );
    }
    const doc = CORPUS.find((d) => d.path === path);
    if (doc) return send(200, page(doc.title, `<p>${escape(doc.content)}</p>`));
    send(404, page('Not found', '<p>There is no such page.</p>'));
  });
  const search = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://search');
    const q = url.searchParams.get('q') ?? '';
    searches.push(q);
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(searchCorpus(q, pagesUrl)));
  });
  const listen = (server: http.Server) =>
    new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  const [pagesPort, searchPort] = await Promise.all([listen(pages), listen(search)]);
  pagesUrl = `http://127.0.0.1:${pagesPort}`;
  const close = (server: http.Server) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    searchUrl: `http://127.0.0.1:${searchPort}`,
    pagesUrl,
    pagesPort,
    searches,
    close: async () => void (await Promise.all([close(pages), close(search)])),
  };
}

/** The large log of the log scenario: four planted problems, one of them to count exactly (137). */
export function plantedLog(): string {
  const lines: string[] = [];
  let timeouts = 0;
  for (let i = 0; i < 20_000; i++) {
    const at = new Date(FIXED_NOW - (20_000 - i) * 4000).toISOString();
    if (i === 4_321) lines.push(`${at} ERROR storage: disk full on /var/lib/app (no space left on device)`);
    else if (i === 9_876) lines.push(`${at} FATAL worker-7: out of memory, process 4242 killed by the OOM killer`);
    else if (i === 15_001) lines.push(`${at} ERROR tls: certificate expired for api.partner.example (notAfter 2026-11-30)`);
    else if (i % 146 === 73 && timeouts < 137) {
      timeouts++;
      lines.push(`${at} WARN http: upstream timeout after 30s calling payments`);
    } else lines.push(`${at} INFO http: GET /api/items/${i % 997} 200 ${(i * 7) % 90}ms`);
  }
  return `${lines.join('\n')}\n`;
}
