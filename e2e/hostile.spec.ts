import { expect, test, type Page } from '@playwright/test';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HOSTILE_FILE_NAME, HOSTILE_NAME } from './double/hostile';
import { ChatPage } from './pages/chat';
import { APP } from '../playwright.config';

/**
 * Hostile text everywhere a user can see it: model output (the double speaks a corpus of
 * markdown, HTML, SVG, data: and javascript: links and remote resources), a tool result
 * (a search whose results carry it), a file name, a thread title, a memory fact and the
 * user's own message. No script may run and no request may leave the page until the user
 * clicks, and the page's CSP must not even have to step in: nothing tries.
 */

let catcher: http.Server;
let base = '';
const caught: string[] = [];

test.beforeAll(async () => {
  catcher = http.createServer((req, res) => {
    caught.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'image/png' }).end();
  });
  await new Promise<void>((resolve) => catcher.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(catcher.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => catcher.close(() => resolve()));
});

/** Every request the page makes, every dialog it opens, every CSP violation it reports. */
function watch(page: Page) {
  const seen = { requests: [] as string[], dialogs: [] as string[], violations: [] as string[] };
  page.on('request', (r) => seen.requests.push(r.url()));
  page.on('dialog', (d) => {
    seen.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) seen.violations.push(m.text());
  });
  return seen;
}

async function assertNothingEscaped(page: Page, seen: ReturnType<typeof watch>, when: string) {
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), `no script ran (${when})`).toBeUndefined();
  expect(seen.dialogs, `no dialog opened (${when})`).toEqual([]);
  const elsewhere = seen.requests.filter((u) => !u.startsWith(`${APP}/`) && !u.startsWith('blob:') && !u.startsWith('data:'));
  expect(elsewhere, `every request went to Hearth itself (${when})`).toEqual([]);
  expect(caught, `the watched server heard nothing (${when})`).toEqual([]);
  expect(seen.violations, `the CSP had nothing to stop (${when})`).toEqual([]);
}

test('hostile text in model output, tool results, file names, titles, memory and user messages runs nothing and loads nothing', async ({
  page,
}) => {
  const seen = watch(page);
  const chat = new ChatPage(page);
  const memory = await page.request.post('/api/memories', { data: { text: `Likes ${HOSTILE_NAME} ![m](${base}/memory.png)` } });
  expect(memory.status()).toBe(201);
  const memoryId = ((await memory.json()) as { id: string }).id;
  let threadId: string | undefined;
  try {
    await chat.open();
    await page
      .getByTestId('file-input')
      .setInputFiles({ name: HOSTILE_FILE_NAME, mimeType: 'text/plain', buffer: Buffer.from('plain words') });
    await expect(page.getByTestId('pending-attachment')).toContainText('onerror');
    await chat.ask(`hostile corpus ${base} and in my own words: ${HOSTILE_NAME} ![u](${base}/user.png) [x](javascript:window.__pwned=2)`);
    await chat.waitForAnswer();
    await expect(chat.lastAnswer()).toContainText('Hostile corpus');
    threadId = chat.threadId();

    // A search whose results carry the hostile text back as a tool result, quoted in the answer.
    await chat.ask(`latest news on <img src=${base}/q.png onerror=window.__pwned=3> ![s](${base}/search.png)`);
    await chat.waitForAnswer();
    await expect(chat.lastAnswer()).toContainText('According to');

    const renamed = await page.request.patch(`/api/threads/${threadId}`, { data: { title: `${HOSTILE_NAME} ![t](${base}/title.png)` } });
    expect(renamed.status()).toBe(200);
    await page.reload();
    await expect(chat.assistantMessages).toHaveCount(2);
    await expect(chat.thread(threadId)).toContainText('<img src=x onerror=');
    await expect(page.getByTestId('message-attachment')).toContainText('onerror');
    await expect(page.getByTestId('memory-fact').filter({ hasText: 'Likes' })).toContainText('<script>');
    await expect(chat.userMessages.first()).toContainText('<img src=x onerror=');

    // Raw HTML is text; images wait for a click; javascript: and data: links are gone.
    const first = chat.assistantMessages.first();
    await expect(first).toContainText('<script>window.__pwned = "script"</script>');
    await expect(first.locator('script, iframe, object, embed, svg, form, video, audio, style, base, meta, link')).toHaveCount(0);
    await expect(first.locator('img')).toHaveCount(0);
    await expect(first.getByTestId('blocked-image').first()).toContainText(`Load image from 127.0.0.1`);
    const hrefs = await page.locator('main a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.filter((h) => /^(javascript|data|vbscript):/i.test(h.trim()))).toEqual([]);
    await assertNothingEscaped(page, seen, 'after rendering and a reload');

    // A click loads an image only through Hearth, which applies the SSRF check (loopback is refused).
    await first.getByTestId('blocked-image').first().getByRole('button').click();
    await expect(first.getByTestId('blocked-image').first()).toContainText('could not be loaded');
    expect(seen.requests.filter((u) => u.includes('/api/remote-image?url='))).toHaveLength(1);
    await assertNothingEscaped(page, seen, 'after a click on an image');
  } finally {
    await page.request.delete(`/api/memories/${memoryId}`);
    if (threadId) await page.request.delete(`/api/threads/${threadId}`);
  }
});
