import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, mock, test } from 'node:test';
import { localSite } from '@/lib/dev/testing/local-site';
import { memoryHosts } from '@/lib/dev/testing/memory-hosts';
import { createHostPacer } from './politeness';
import { createToolRegistry } from './registry';
import { createFetchUrlTool, createWebSearchTool, checkedGet, parseSearxng, readableText } from './web';

/**
 * Every way a web request ends, in the words the model reads: each status, each redirect edge,
 * a body over the byte limit, a page at the character limits, a connection refused, the headers
 * a site sees; and SearXNG's answers, good and bad. A local server stands in for the web.
 */

const requests: { url: string; headers: http.IncomingHttpHeaders }[] = [];
/** Answers held open by /hang, ended by the test that made them. */
const hanging: http.ServerResponse[] = [];
const site = localSite((req, res) => {
  const url = req.url ?? '/';
  requests.push({ url, headers: req.headers });
  if (url === '/hang') return void hanging.push(res);
  const status = /^\/status\/(\d+)$/.exec(url);
  const chain = /^\/chain\/(\d+)$/.exec(url);
  const chars = /^\/chars\/(\d+)$/.exec(url);
  if (status)
    res.writeHead(Number(status[1]), Number(status[1]) === 400 || Number(status[1]) === 300 ? { Location: '/chars/500' } : {}).end();
  else if (chain) {
    const n = Number(chain[1]);
    if (n === 0) res.writeHead(200, { 'Content-Type': 'text/plain' }).end('y'.repeat(500));
    else res.writeHead(302, { Location: `/chain/${n - 1}` }).end();
  } else if (chars) res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end('z'.repeat(Number(chars[1])));
  else if (url === '/no-location') res.writeHead(302).end();
  else if (url === '/ok-with-location')
    res.writeHead(200, { 'Content-Type': 'text/plain', Location: '/chars/500' }).end('The page itself.');
  else if (url === '/reset') {
    // Headers and the first bytes of a longer body, then the connection dropped.
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '1000' });
    res.write('a'.repeat(10), () => res.socket?.destroy());
  } else if (url === '/bytes') {
    // Three chunks of 4000 bytes: a limit inside the second cuts it there.
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.write('a'.repeat(4000));
    res.write('b'.repeat(4000));
    res.end('c'.repeat(4000));
  } else if (url === '/untyped')
    res.writeHead(200).end('<html><head><title>Untyped</title></head><body><p>A page that says nothing of its type.</p></body></html>');
  else if (url === '/json') res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"temperature": 21}');
  else if (url === '/xml') res.writeHead(200, { 'Content-Type': 'application/rss+xml' }).end('<rss><title>Feed</title></rss>');
  else if (url === '/pdf') res.writeHead(200, { 'Content-Type': 'application/pdf' }).end('%PDF-1.4');
  else res.writeHead(404).end();
});
const policy = () => site.policy();
const budget = { minGapMs: 0, perMinute: 600, perHour: 9000, perDay: 80000 };

function web(extractPdf?: (bytes: Uint8Array) => Promise<string>) {
  const store = memoryHosts();
  const now = () => 1_000_000;
  const pacer = createHostPacer(store, now, {}, budget);
  const tool = createFetchUrlTool({ policy: policy(), pacer, now, ...(extractPdf ? { extractPdf } : {}) });
  const registry = createToolRegistry([tool as never]);
  const fetchUrl = (path: string) =>
    registry.run(
      'fetch_url',
      JSON.stringify({ url: `http://public.example:${site.port}${path}` }),
      { now, timezone: 'UTC', threadId: 't' },
      new AbortController().signal,
    );
  return { store, pacer, fetchUrl, tool, deps: { policy: policy(), pacer, now } };
}
const errorOf = (r: { ok: boolean; error?: string }) => (r.ok ? `(ok)` : String(r.error));
const dataOf = (r: { ok: boolean; data?: unknown }) =>
  r.ok
    ? (r.data as { url: string; title: string; text: string; note?: string })
    : assert.fail(`expected a page: ${errorOf(r as { ok: boolean; error?: string })}`);

describe('fetch_url: how a site’s answer reaches the model', () => {
  test('each status in its own words', async () => {
    const { fetchUrl } = web();
    const said: Record<number, string> = {};
    for (const s of [400, 401, 403, 404, 410, 500, 503]) said[s] = errorOf(await fetchUrl(`/status/${s}`));
    assert.deepEqual(said, {
      400: 'the site answered HTTP 400',
      401: 'the site answered 401: it blocks automated readers; use a different source',
      403: 'the site answered 403: it blocks automated readers; use a different source',
      404: 'the site answered 404: there is no page there; search and fetch a URL the search returns',
      410: 'the site answered HTTP 410',
      500: 'the site answered 500: it has trouble of its own; try another source',
      503: 'the site answered 503: it has trouble of its own; try another source',
    });
  });

  test('redirects: 300 to 399 with a Location are followed, five of them and no more; none without a Location', async () => {
    const { fetchUrl } = web();
    const r300 = await fetchUrl('/status/300');
    assert.equal(dataOf(r300).text, 'z'.repeat(500), `a 300 with a Location is followed: ${errorOf(r300)}`);
    const five = dataOf(await fetchUrl('/chain/5'));
    assert.deepEqual([five.url, five.text.length], [`http://public.example:${site.port}/chain/0`, 500]);
    assert.equal(errorOf(await fetchUrl('/chain/6')), 'more than 5 redirects; give up on this page');
    const bare = dataOf(await fetchUrl('/no-location'));
    assert.deepEqual(
      [bare.text, bare.note],
      ['', 'Very little text came back: the page may need JavaScript or be behind a login.'],
      'a redirect without a Location is the page',
    );
    assert.equal(dataOf(await fetchUrl('/ok-with-location')).text, 'The page itself.', 'a Location on a 200 is no redirect');
  });

  test('the headers a site sees: a browser-like agent naming Hearth, and what it accepts', async () => {
    const { fetchUrl } = web();
    const before = requests.length;
    await fetchUrl('/chars/500');
    const { headers } = requests[before];
    assert.equal(headers['user-agent'], 'Mozilla/5.0 (X11; Linux x86_64) Hearth/0.1 (self-hosted assistant; reads one page on request)');
    assert.equal(headers.accept, 'text/html,application/xhtml+xml,application/json,text/plain;q=0.9,*/*;q=0.5');
  });

  test('a page at the limits: 12,000 characters whole, one more cut with a note; under 400 said to be thin; between, nothing', async () => {
    const { fetchUrl } = web();
    const whole = dataOf(await fetchUrl('/chars/12000'));
    assert.deepEqual([whole.text.length, whole.note], [12_000, undefined]);
    const cut = dataOf(await fetchUrl('/chars/12001'));
    assert.deepEqual([cut.text.length, cut.note], [12_000, 'The page was cut at 12000 characters; do not fetch it again for more.']);
    assert.equal(dataOf(await fetchUrl('/chars/400')).note, undefined);
    assert.equal(
      dataOf(await fetchUrl('/chars/399')).note,
      'Very little text came back: the page may need JavaScript or be behind a login.',
    );
  });

  test('a body over the byte limit is cut at the limit exactly, inside the chunk that crosses it', async () => {
    const { deps } = web();
    const url = `http://public.example:${site.port}/bytes`;
    const cut = await checkedGet(url, deps, new AbortController().signal, 6000);
    assert.deepEqual([cut.res.truncated, cut.res.body.toString()], [true, `${'a'.repeat(4000)}${'b'.repeat(2000)}`]);
    const exact = await checkedGet(url, deps, new AbortController().signal, 12_000);
    assert.deepEqual([exact.res.truncated, exact.res.body.length], [false, 12_000], 'a body of exactly the limit is whole');
  });

  test('types: no type is read as HTML, JSON and XML as text, a PDF needs its reader', async () => {
    const { fetchUrl } = web();
    const untyped = dataOf(await fetchUrl('/untyped'));
    assert.deepEqual([untyped.title, untyped.text], ['Untyped', 'A page that says nothing of its type.']);
    assert.deepEqual(
      [dataOf(await fetchUrl('/json')).text, dataOf(await fetchUrl('/json')).title],
      ['{"temperature": 21}', ''],
      'a page that is not HTML has no title',
    );
    assert.equal(dataOf(await fetchUrl('/xml')).text, '<rss><title>Feed</title></rss>');
    assert.equal(errorOf(await fetchUrl('/pdf')), 'this page is a PDF and PDF reading is not available');
    const read = web(async (bytes) => `read ${bytes.length} bytes`);
    assert.equal(dataOf(await read.fetchUrl('/pdf')).text, 'read 8 bytes');
  });

  test('a connection refused is said with the host, and rests it for minutes', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const store = memoryHosts();
    const pacer = createHostPacer(store, () => 1_000_000, {}, budget);
    const tool = createFetchUrlTool({ policy: { ...policy(), allowedPorts: [deadPort] }, pacer, now: () => 1_000_000 });
    const r = await createToolRegistry([tool as never]).run(
      'fetch_url',
      JSON.stringify({ url: `http://public.example:${deadPort}/` }),
      { now: () => 0, timezone: 'UTC', threadId: 't' },
      new AbortController().signal,
    );
    assert.match(
      errorOf(r),
      new RegExp(
        `^public\\.example:${deadPort}: the connection failed \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${deadPort}\\); answer with what you have$`,
      ),
    );
    assert.equal(
      store.boxes.get(`public.example:${deadPort}`)?.reason,
      `the connection failed (connect ECONNREFUSED 127.0.0.1:${deadPort})`,
    );
  });

  test('a connection dropped in the middle of the body is a connection failure, said with the host', async () => {
    const { fetchUrl } = web();
    assert.match(
      errorOf(await fetchUrl('/reset')),
      new RegExp(`^public\\.example:${site.port}: the connection failed \\(.+\\); answer with what you have$`),
    );
  });

  test('a gap the host asks for is waited out before the page is asked, not after', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const store = memoryHosts();
      const pacer = createHostPacer(store, () => 1_000_000, {}, { ...budget, minGapMs: 1000 });
      const tool = createFetchUrlTool({ policy: policy(), pacer, now: () => 1_000_000 });
      const fetchUrl = (path: string) =>
        createToolRegistry([tool as never]).run(
          'fetch_url',
          JSON.stringify({ url: `http://public.example:${site.port}${path}` }),
          { now: () => 0, timezone: 'UTC', threadId: 't' },
          new AbortController().signal,
        );
      assert.ok((await fetchUrl('/chars/500')).ok, 'the first page');
      const before = requests.length;
      const second = fetchUrl('/chars/501');
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      assert.equal(requests.length, before, 'the second page waits');
      mock.timers.tick(1000);
      assert.equal(dataOf(await second).text.length, 501);
      assert.equal(requests.length, before + 1);
    } finally {
      mock.timers.reset();
    }
  });

  test('a page that does not answer is given up after 20 seconds, said so, and its host rested (the clock moved by the test)', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    const { fetchUrl, store } = web();
    try {
      let settled = false;
      const pending = fetchUrl('/hang').finally(() => (settled = true));
      for (let i = 0; i < 200 && hanging.length === 0; i++) await new Promise((r) => setImmediate(r));
      assert.equal(hanging.length, 1, 'the site got the request');
      mock.timers.tick(19_999);
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      assert.equal(settled, false, 'still waiting at 19.999 s');
      mock.timers.tick(1);
      assert.equal(errorOf(await pending), `public.example:${site.port}: it did not answer within 20 s; answer with what you have`);
      assert.equal(store.boxes.get(`public.example:${site.port}`)?.reason, 'it did not answer within 20 s');
    } finally {
      mock.timers.reset();
      for (const res of hanging.splice(0)) res.end();
    }
  });

  test('an https address is asked over TLS (a plain server cannot answer it)', async () => {
    const { deps } = web();
    await assert.rejects(checkedGet(`https://public.example:${site.port}/chars/500`, deps, new AbortController().signal), (err: Error) => {
      assert.match(err.message, /the connection failed/);
      assert.doesNotMatch(err.message, /Protocol "https:" not supported/);
      return true;
    });
  });

  test('stopped by the turn: the stop itself, not a connection failure, and no rest for the host', async () => {
    const { deps, store } = web();
    const stop = new AbortController();
    stop.abort(new Error('turn stopped'));
    await assert.rejects(checkedGet(`http://public.example:${site.port}/chars/500`, deps, stop.signal), (err: Error) => {
      assert.doesNotMatch(err.message, /connection failed/);
      return true;
    });
    assert.equal(store.boxes.size, 0);
  });

  test('what the model is told of fetch_url, and its limits', async () => {
    const { tool, fetchUrl } = web();
    assert.equal(
      tool.description,
      'Read one public web page (http or https) as plain text, for example a result from web_search. Long pages are cut at about 12,000 characters.',
    );
    assert.deepEqual([tool.cost, tool.timeoutMs, tool.research], [5, 25_000, false]);
    const registry = createToolRegistry([tool as never]);
    const short = await registry.run(
      'fetch_url',
      '{"url":"http://"}',
      { now: () => 0, timezone: 'UTC', threadId: 't' },
      new AbortController().signal,
    );
    assert.match(errorOf(short), /invalid arguments for fetch_url: url/);
    void fetchUrl;
  });
});

describe('readable text', () => {
  test('a short page: the body’s text without scripts, navigation or forms, spaces folded, blank lines kept as one', async () => {
    const html =
      '<html><head><title>  Hours </title><style>p{}</style></head><body><nav>Menu</nav><header>Top</header><p>Open   \t daily</p>\n \n \n<p>Closed Sundays</p>\n\n\n<p>Open late on Fridays</p><script>x()</script><form>Search</form><footer>Foot</footer><aside>Ad</aside><noscript>JS</noscript><svg>icon</svg></body></html>';
    assert.deepEqual(await readableText(html, 'http://x/'), {
      title: 'Hours',
      text: 'Open daily\n\nClosed Sundays\n\nOpen late on Fridays',
    });
  });

  test('a fragment, plain text or nothing is read as the body of a page (linkedom builds no document of them)', async () => {
    const read = async (html: string) => readableText(html, 'http://x/');
    assert.deepEqual(await read(''), { title: '', text: '' });
    assert.deepEqual(await read('  '), { title: '', text: '' });
    assert.deepEqual(await read('Just words.'), { title: '', text: 'Just words.' });
    assert.deepEqual(await read('<title>T</title><p>A fragment</p>'), { title: 'T', text: 'A fragment' });
    assert.deepEqual(await read('<HTML><BODY>Shouting</BODY></HTML>'), { title: '', text: 'Shouting' });
    assert.deepEqual(await read('<html><head><title>Empty</title></head></html>'), { title: 'Empty', text: '' }, 'a page without a body');
  });

  test('an article: Readability’s text without the page’s sidebar and comments, spaces folded, its title', async () => {
    const para = (s: string) => `<p>${s} The museum opens at nine every morning and closes at six, except on public holidays.</p>`;
    const html =
      '<html><head><title>Museum hours | City of Lyon</title></head><body><div class="sidebar">Related links</div>' +
      `<article>\n  <h1>Museum hours</h1>\n  ${para('Open   \t daily.')}\n \n \n${para('Closed Sundays.')}\n\n\n${para('Free on Fridays.')}\n  </article>` +
      '<div class="comments">Comment: great</div></body></html>';
    const tail = ' The museum opens at nine every morning and closes at six, except on public holidays.';
    assert.deepEqual(await readableText(html, 'http://x/'), {
      title: 'Museum hours | City of Lyon',
      text: `Open daily.${tail}\n\nClosed Sundays.${tail}\n\nFree on Fridays.${tail}`,
    });
  });

  test('an article of 200 characters is too little to trust: the whole body is read; of 201, the article', async () => {
    const page = (text: string) =>
      `<html><head><title>T</title></head><body><div class="sidebar">Related links</div><article><p>${text}</p></article></body></html>`;
    const exactly200 = `${'word '.repeat(40).trim()}.`;
    const exactly201 = `${'word '.repeat(40).trim()}s.`;
    assert.deepEqual([exactly200.length, exactly201.length], [200, 201]);
    assert.equal((await readableText(page(exactly200), 'http://x/')).text, `Related links${exactly200}`);
    assert.equal((await readableText(page(exactly201), 'http://x/')).text, exactly201);
  });
});

describe('web_search: SearXNG’s answers in the model’s words', () => {
  type Reply = Response | Error;
  function search(reply: () => Reply, minGapMs = 0) {
    const store = memoryHosts();
    const asked: { url: string; accept: string | null }[] = [];
    const fetchImpl = (async (url: URL, init: RequestInit) => {
      asked.push({ url: String(url), accept: new Headers(init.headers).get('accept') });
      const r = reply();
      if (r instanceof Error) throw r;
      return r;
    }) as unknown as typeof fetch;
    const pacer = createHostPacer(store, () => 5, {}, { ...budget, minGapMs });
    const tool = createWebSearchTool({ searxngUrl: 'http://searx.local:8888/base', pacer, now: () => 5, fetchImpl });
    const registry = createToolRegistry([tool as never]);
    const run = (args: object, signal = new AbortController().signal) =>
      registry.run('web_search', JSON.stringify(args), { now: () => 0, timezone: 'UTC', threadId: 't' }, signal);
    return { run, asked, store, tool };
  }
  const results = (n: number) =>
    Response.json({ results: Array.from({ length: n }, (_, i) => ({ title: `R${i}`, url: `https://r${i}.example/`, content: 'c' })) });

  test('the search asked: under the base path, as JSON, six results unless asked for up to ten', async () => {
    const s = search(() => results(12));
    const six = await s.run({ query: 'tides today' });
    assert.equal((six.ok && (six.data as { results: unknown[] }).results.length) || 0, 6);
    assert.deepEqual(s.asked[0], { url: 'http://searx.local:8888/base/search?q=tides+today&format=json', accept: 'application/json' });
    const ten = await s.run({ query: 'tides', limit: 10 });
    assert.equal((ten.ok && (ten.data as { results: unknown[] }).results.length) || 0, 10);
    assert.match(errorOf(await s.run({ query: 'tides', limit: 11 })), /invalid arguments for web_search: limit/);
    assert.match(errorOf(await s.run({ query: 'tides', limit: 0 })), /invalid arguments for web_search: limit/);
    assert.match(errorOf(await s.run({ query: 'x'.repeat(301) })), /invalid arguments for web_search: query/);
    assert.ok((await s.run({ query: 'x'.repeat(300) })).ok, '300 characters are a query');
  });

  test('no answer, an error status, a refusal, not JSON: each said, and only the silence and refusal rest the host', async () => {
    const silent = search(() => new Error('connect ECONNREFUSED'));
    assert.equal(
      errorOf(await silent.run({ query: 'q' })),
      'the search service did not answer; answer with what you have and say it could not be checked',
    );
    assert.equal(silent.store.boxes.get('searx.local:8888')?.reason, 'the search service did not answer');

    const broken = search(() => new Response('oops', { status: 500 }));
    assert.equal(
      errorOf(await broken.run({ query: 'q' })),
      'the search service answered HTTP 500; try once more with other words or answer with what you have',
    );
    assert.equal(broken.store.boxes.size, 0);

    for (const status of [429, 202]) {
      const refusing = search(() => new Response('', { status }));
      assert.equal(
        errorOf(await refusing.run({ query: 'q' })),
        'the search service is refusing requests for now; answer with what you have and say what could not be checked',
      );
      assert.ok(refusing.store.boxes.get('searx.local:8888'), `${status} rests the host`);
    }

    const html = search(() => new Response('<html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    assert.equal(
      errorOf(await html.run({ query: 'q' })),
      'the search service returned something that is not JSON (is format=json enabled in SearXNG?)',
    );

    const empty = search(() => Response.json({ results: [] }));
    assert.equal(errorOf(await empty.run({ query: 'nothing here' })), 'no results for "nothing here"; try other, simpler words');
  });

  test('stopped by the turn while asking: the search is stopped too, the turn stops (no "did not answer"), and no rest', async () => {
    const stop = new AbortController();
    let given: AbortSignal | undefined;
    const store = memoryHosts();
    const pacer = createHostPacer(store, () => 5, {}, budget);
    // Like fetch: the answer never comes, and the request ends when its signal aborts.
    const fetchImpl = ((_url: URL, init: RequestInit) =>
      new Promise((_, reject) => {
        given = init.signal ?? undefined;
        given?.addEventListener('abort', () => reject(given?.reason));
      })) as unknown as typeof fetch;
    const tool = createWebSearchTool({ searxngUrl: 'http://searx.local:8888/', pacer, now: () => 5, fetchImpl });
    const running = tool.run({ query: 'q' }, { now: () => 0, timezone: 'UTC', threadId: 't' }, stop.signal);
    // Stopped while asking: once the request is out (the pacer asks its store first).
    for (let i = 0; i < 20 && !given; i++) await new Promise((r) => setImmediate(r));
    stop.abort(new Error('turn stopped'));
    await assert.rejects(running, /turn stopped/);
    assert.equal(given?.aborted, true, 'the request itself was stopped');
    assert.equal(store.boxes.size, 0);
  });

  test('a search that does not answer is given up after 12 seconds and the service rested (the clock moved by the test)', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const store = memoryHosts();
      const pacer = createHostPacer(store, () => 5, {}, budget);
      let asked = false;
      const fetchImpl = ((_url: URL, init: RequestInit) =>
        new Promise((_, reject) => {
          asked = true;
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        })) as unknown as typeof fetch;
      const tool = createWebSearchTool({ searxngUrl: 'http://searx.local:8888/', pacer, now: () => 5, fetchImpl });
      let settled = false;
      const running = tool
        .run({ query: 'q' }, { now: () => 0, timezone: 'UTC', threadId: 't' }, new AbortController().signal)
        .finally(() => (settled = true));
      for (let i = 0; i < 20 && !asked; i++) await new Promise((r) => setImmediate(r));
      mock.timers.tick(11_999);
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      assert.equal(settled, false, 'still waiting at 11.999 s');
      mock.timers.tick(1);
      await assert.rejects(
        running,
        /^ToolError: the search service did not answer; answer with what you have and say it could not be checked$/,
      );
      assert.equal(store.boxes.get('searx.local:8888')?.reason, 'the search service did not answer');
    } finally {
      mock.timers.reset();
    }
  });

  test('a search that answered leaves no timer behind (its 12-second limit is cleared)', async () => {
    const s = search(() => results(1));
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    assert.ok((await s.run({ query: 'x' })).ok);
    assert.equal(timers(), before);
  });

  test('a gap the host asks for is waited out before the search, not after', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const s = search(() => results(1), 1000);
      await s.run({ query: 'first' });
      const second = s.run({ query: 'second' });
      // Turns of the event loop, not of microtasks: the pacer asks its store before it sets the timer.
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      assert.equal(s.asked.length, 1, 'the second search waits');
      mock.timers.tick(1000);
      assert.ok((await second).ok);
      assert.equal(s.asked.length, 2);
    } finally {
      mock.timers.reset();
    }
  });

  test('what the model is told of web_search', () => {
    const { tool } = search(() => results(1));
    assert.equal(
      tool.description,
      'Search the web. Use it for anything current, local, priced, scheduled or checkable: news, prices, weather, opening hours, scores, releases, people and products. Returns title, url and snippet for the top results; fetch_url a result to read the page.',
    );
    assert.deepEqual([tool.cost, tool.timeoutMs, tool.research], [5, 15_000, true]);
  });
});

describe('SearXNG’s JSON, read', () => {
  test('each result cut to size, whitespace folded, its date when it has one, blanks where it has none', () => {
    const [r] = parseSearxng(
      {
        results: [
          {
            title: 'T'.repeat(250),
            url: 'https://a.example/',
            content: `  many   \n words ${'w'.repeat(500)}`,
            publishedDate: '2026-11-30',
          },
        ],
      },
      5,
    );
    assert.equal(r.title, 'T'.repeat(200));
    assert.equal(r.snippet, `many words ${'w'.repeat(389)}`);
    assert.equal(r.published, '2026-11-30');
    assert.deepEqual(parseSearxng({ results: [{ url: 'https://b.example/' }] }, 5), [
      { title: '', url: 'https://b.example/', snippet: '' },
    ]);
  });

  test('only http(s) addresses from their start, each once, up to the limit; no results is none', () => {
    const body = {
      results: [
        { url: 'javascript:https://x.example/' },
        { url: 'https://a.example/' },
        { url: 'http://b.example/' },
        { url: 'https://c.example/' },
      ],
    };
    assert.deepEqual(
      parseSearxng(body, 2).map((r) => r.url),
      ['https://a.example/', 'http://b.example/'],
    );
    assert.deepEqual(parseSearxng({}, 5), []);
    assert.throws(() => parseSearxng({ results: 'none' }, 5), /not a SearXNG answer/);
  });
});
