import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

/** A thread exported from its menu as one web page: it opens offline, and asks nothing of any server. */
test('a thread downloads as one HTML page that opens with no request outside the file', async ({ page, context }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newChat();
  await chat.ask(`Explain a closure in JavaScript, export test ${Date.now()}`);
  await chat.waitForAnswer();
  const id = chat.threadId();
  // A title typed by the user: nothing rewrites it (the model's title could arrive at any moment).
  expect((await page.request.patch(`/api/threads/${id}`, { data: { title: 'Closures, kept offline' } })).status()).toBe(200);
  await page.getByTestId('export-menu').locator('summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-html').click()]);
  expect(download.suggestedFilename()).toMatch(/\.html$/);
  // Saved under its own name: a browser reads a file:// page by its extension.
  const file = test.info().outputPath(download.suggestedFilename());
  await download.saveAs(file);

  const reader = await context.newPage();
  const asked: string[] = [];
  reader.on('request', (r) => asked.push(r.url()));
  await reader.goto(`file://${file}`);
  await expect(reader.locator('h1')).toHaveText('Closures, kept offline');
  await expect(reader.locator('article.user')).toContainText('Explain a closure in JavaScript');
  await expect(reader.locator('article.assistant .md')).not.toBeEmpty();
  expect(await reader.locator('script').count()).toBe(0);
  expect(asked).toEqual([`file://${file}`]);
  await reader.close();
  await page.request.delete(`/api/threads/${id}`);
});
