import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { z } from 'zod';
import { checkUrl, type UrlPolicy } from './url-check';
import { hostKey, restingMessage, type HostPacer } from './politeness';
import { isHearthError } from '@/lib/shared/errors';
import { defineTool, ToolError } from './types';

/** web_search through SearXNG's JSON API, and fetch_url: one public page as readable text. */

export const FETCH_TIMEOUT_MS = 20_000;
export const FETCH_MAX_BYTES = 8 * 1024 * 1024;
export const FETCH_MAX_REDIRECTS = 5;
export const PAGE_MAX_CHARS = 12_000;
/** How long SearXNG has to answer a search (it asks its engines in parallel and gives up on slow ones itself). */
const SEARCH_TIMEOUT_MS = 12_000;
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) Hearth/0.1 (self-hosted assistant; reads one page on request)';

type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; truncated: boolean };

/** One request to an address already checked, never resolving the name again. */
function pinnedGet(url: URL, address: string, family: 4 | 6, signal: AbortSignal, maxBytes: number): Promise<RawResponse> {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    // Node 20 always asks with all (it may try each family); the other form is for a runtime that does not
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.get(
      url,
      {
        lookup,
        signal,
        headers: { 'User-Agent': USER_AGENT, Accept: 'text/html,application/xhtml+xml,application/json,text/plain;q=0.9,*/*;q=0.5' },
      },
      (res) => {
        const parts: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          // destroy() below ends the data events; this guards a chunk already queued
          if (truncated) return;
          size += chunk.length;
          if (size > maxBytes) {
            truncated = true;
            parts.push(chunk.subarray(0, chunk.length - (size - maxBytes)));
            res.destroy();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), truncated });
            return;
          }
          parts.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), truncated }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

export type WebDeps = { policy: UrlPolicy; pacer: HostPacer; now: () => number };

function adviceForStatus(status: number): string {
  if (status === 401 || status === 403) return `the site answered ${status}: it blocks automated readers; use a different source`;
  if (status === 404) return 'the site answered 404: there is no page there; search and fetch a URL the search returns';
  if (status >= 500) return `the site answered ${status}: it has trouble of its own; try another source`;
  return `the site answered HTTP ${status}`;
}

/** GET with the SSRF check on the URL and on every redirect, and the host's politeness. */
export async function checkedGet(raw: string, deps: WebDeps, signal: AbortSignal, maxBytes = FETCH_MAX_BYTES) {
  let current = raw;
  for (let hop = 0; hop <= FETCH_MAX_REDIRECTS; hop++) {
    const decision = await checkUrl(current, deps.policy);
    if (!decision.ok) throw new ToolError(hop === 0 ? decision.reason : `a redirect led to a refused address: ${decision.reason}`);
    const host = hostKey(decision.url);
    const verdict = await deps.pacer.admit(host);
    if (!verdict.ok) throw new ToolError(restingMessage(host, verdict, deps.now()));
    if (verdict.waitMs > 0) await new Promise((r) => setTimeout(r, verdict.waitMs));
    // A plain timer, not AbortSignal.timeout: the same clock as the rest of the program (and
    // the one tests move), cleared as soon as the page is in.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), FETCH_TIMEOUT_MS);
    let res: RawResponse;
    try {
      res = await pinnedGet(decision.url, decision.address, decision.family, AbortSignal.any([signal, timeout.signal]), maxBytes);
    } catch (err) {
      if (signal.aborted) throw err;
      const why = timeout.signal.aborted
        ? `it did not answer within ${FETCH_TIMEOUT_MS / 1000} s`
        : `the connection failed (${(err as Error).message})`;
      await deps.pacer.stumbled(host, why);
      throw new ToolError(`${host}: ${why}; answer with what you have`);
    } finally {
      clearTimeout(timer);
    }
    if (res.status === 429 || res.status === 202) {
      await deps.pacer.refused(host, res.status);
      throw new ToolError(`${host} is refusing automated requests (HTTP ${res.status}) and will rest for hours; answer with what you have`);
    }
    if (res.status >= 300 && res.status < 400 && res.headers.location) {
      current = new URL(res.headers.location, decision.url).toString();
      continue;
    }
    if (res.status >= 400) throw new ToolError(adviceForStatus(res.status));
    await deps.pacer.succeeded(host);
    return { url: decision.url, res };
  }
  throw new ToolError(`more than ${FETCH_MAX_REDIRECTS} redirects; give up on this page`);
}

const searxResult = z.object({
  title: z.string().default(''),
  url: z.string(),
  content: z.string().optional().default(''),
  publishedDate: z.string().nullish(),
});
// an entry that is not a result is skipped, so a default of junk reads as none
const searxResponse = z.object({ results: z.array(z.unknown()).default([]) });

/** Reads SearXNG's JSON answer: title, url, snippet for the top results, skipping malformed entries. */
export function parseSearxng(body: unknown, limit: number) {
  const parsed = searxResponse.safeParse(body);
  if (!parsed.success) throw new ToolError('the search service returned something that is not a SearXNG answer');
  const results: { title: string; url: string; snippet: string; published?: string }[] = [];
  const seen = new Set<string>();
  for (const raw of parsed.data.results) {
    const r = searxResult.safeParse(raw);
    if (!r.success || !/^https?:\/\//.test(r.data.url) || seen.has(r.data.url)) continue;
    seen.add(r.data.url);
    results.push({
      title: r.data.title.slice(0, 200),
      url: r.data.url,
      snippet: r.data.content.replace(/\s+/g, ' ').trim().slice(0, 400),
      ...(r.data.publishedDate ? { published: r.data.publishedDate } : {}),
    });
    if (results.length >= limit) break;
  }
  return results;
}

/** A SearXNG search asked for as JSON. */
function searxngQuery(base: URL, query: string): URL {
  const url = new URL('search', base.href.endsWith('/') ? base.href : `${base.href}/`);
  url.searchParams.set('q', query);
  url.searchParams.set('format', 'json');
  return url;
}

/** The Settings page's test of a SearXNG address: one search, and what came back, in words. */
export async function checkSearxng(
  searxngUrl: string,
  fetchImpl: typeof fetch = fetch,
): Promise<{ ok: boolean; results?: number; error?: string }> {
  let res: Response;
  try {
    res = await fetchImpl(searxngQuery(new URL(searxngUrl), 'weather'), {
      signal: AbortSignal.timeout(8000),
      headers: { Accept: 'application/json' },
    });
  } catch (err) {
    return { ok: false, error: `no answer from ${searxngUrl} (${(err as Error).message})` };
  }
  if (!res.ok)
    return {
      ok: false,
      error: `it answered HTTP ${res.status}${res.status === 403 ? ' (is format=json enabled in its settings.yml?)' : ''}`,
    };
  try {
    return { ok: true, results: parseSearxng(await res.json(), 50).length };
  } catch {
    return { ok: false, error: 'it answered, but not with SearXNG JSON (is format=json enabled in its settings.yml?)' };
  }
}

export function createWebSearchTool({
  searxngUrl,
  pacer,
  now,
  fetchImpl = fetch,
}: {
  searxngUrl: string;
  pacer: HostPacer;
  now: () => number;
  fetchImpl?: typeof fetch;
}) {
  const base = new URL(searxngUrl);
  return defineTool({
    name: 'web_search',
    description:
      'Search the web. Use it for anything current, local, priced, scheduled or checkable: news, prices, weather, ' +
      'opening hours, scores, releases, people and products. Returns title, url and snippet for the top results; ' +
      'fetch_url a result to read the page.',
    params: z.object({
      query: z.string().min(1).max(300).describe('what a person would type into a search box'),
      limit: z.number().int().min(1).max(10).optional().describe('how many results, default 6'),
    }),
    cost: 5,
    timeoutMs: 15_000,
    research: true,
    async run({ query, limit }, _deps, signal) {
      const host = hostKey(base);
      const verdict = await pacer.admit(host);
      if (!verdict.ok) throw new ToolError(restingMessage(host, verdict, now()));
      if (verdict.waitMs > 0) await new Promise((r) => setTimeout(r, verdict.waitMs));
      const url = searxngQuery(base, query);
      let res: Response;
      // A plain timer (see checkedGet), cleared once the answer is in.
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), SEARCH_TIMEOUT_MS);
      try {
        res = await fetchImpl(url, { signal: AbortSignal.any([signal, timeout.signal]), headers: { Accept: 'application/json' } });
      } catch (err) {
        if (signal.aborted) throw err;
        await pacer.stumbled(host, 'the search service did not answer');
        throw new ToolError('the search service did not answer; answer with what you have and say it could not be checked');
      } finally {
        clearTimeout(timer);
      }
      if (res.status === 429 || res.status === 202) {
        await pacer.refused(host, res.status);
        throw new ToolError('the search service is refusing requests for now; answer with what you have and say what could not be checked');
      }
      if (!res.ok)
        throw new ToolError(`the search service answered HTTP ${res.status}; try once more with other words or answer with what you have`);
      let body: unknown;
      try {
        body = await res.json();
      } catch {
        throw new ToolError('the search service returned something that is not JSON (is format=json enabled in SearXNG?)');
      }
      await pacer.succeeded(host);
      const results = parseSearxng(body, limit ?? 6);
      if (results.length === 0) throw new ToolError(`no results for "${query}"; try other, simpler words`);
      return { query, results };
    },
  });
}

/** Readable text of an HTML page: Readability on a linkedom DOM, falling back to the body's text. */
export async function readableText(html: string, url: string): Promise<{ title: string; text: string }> {
  const { parseHTML } = await import('linkedom');
  const { Readability } = await import('@mozilla/readability');
  // linkedom builds no document from a fragment, plain text or nothing (an untyped or empty
  // answer): its reading threw, or found no text. Such a body is read as the body of a page.
  // linkedom reads a whole page wrapped again as the page itself
  if (!/<html[\s>]/i.test(html)) html = `<!doctype html><html><head></head><body>${html}</body></html>`;
  const { document } = parseHTML(html);
  const title = (document.querySelector('title')?.textContent ?? '').trim();
  try {
    // Readability gives its longest attempt when none reaches the threshold; the option spares it retries
    const article = new Readability(document as unknown as Document, { charThreshold: 200 }).parse();
    const text = article?.textContent
      ?.replace(/[ \t]+/g, ' ')
      .replace(/\n\s*\n/g, '\n\n')
      .trim();
    if (text && text.length > 200) return { title: article?.title || title, text };
  } catch {
    // fall through to the plain text
  }
  const { document: fresh } = parseHTML(html);
  for (const el of fresh.querySelectorAll('title,script,style,noscript,nav,header,footer,aside,form,svg')) el.remove();
  const text = fresh.body.textContent
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n/g, '\n\n')
    .trim();
  void url;
  return { title, text };
}

export function createFetchUrlTool(deps: WebDeps & { extractPdf?: (bytes: Uint8Array) => Promise<string> }) {
  return defineTool({
    name: 'fetch_url',
    description:
      'Read one public web page (http or https) as plain text, for example a result from web_search. ' +
      'Long pages are cut at about 12,000 characters.',
    params: z.object({ url: z.string().min(8).max(2000).describe('the full http(s) URL') }),
    cost: 5,
    timeoutMs: FETCH_TIMEOUT_MS + 5000,
    // Reading a known page is not a search: without web_search the gate does not send turns back.
    research: false,
    async run({ url }, _toolDeps, signal) {
      const { url: finalUrl, res } = await checkedGet(url, deps, signal);
      const type = String(res.headers['content-type'] ?? '').toLowerCase();
      let title = '';
      let text: string;
      if (type.includes('pdf')) {
        if (!deps.extractPdf) throw new ToolError('this page is a PDF and PDF reading is not available');
        // A PDF too large or too broken to read (extract.ts says which) is the model's to hear, as any tool failure.
        text = await deps.extractPdf(new Uint8Array(res.body)).catch((err: unknown) => {
          throw isHearthError(err) ? new ToolError(err.message) : err;
        });
      } else if (type.includes('html') || type === '') {
        ({ title, text } = await readableText(res.body.toString('utf8'), finalUrl.toString()));
      } else if (type.startsWith('text/') || type.includes('json') || type.includes('xml')) {
        text = res.body.toString('utf8');
      } else {
        throw new ToolError(`the page is ${type}, which cannot be read as text`);
      }
      const cut = text.length > PAGE_MAX_CHARS;
      return {
        url: finalUrl.toString(),
        title,
        // Page text is data, not instructions: it reaches the model only inside this result.
        text: cut ? text.slice(0, PAGE_MAX_CHARS) : text,
        ...(cut || res.truncated ? { note: `The page was cut at ${PAGE_MAX_CHARS} characters; do not fetch it again for more.` } : {}),
        ...(text.length < 400 ? { note: 'Very little text came back: the page may need JavaScript or be behind a login.' } : {}),
      };
    },
  });
}
