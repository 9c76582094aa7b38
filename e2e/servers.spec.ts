import { expect, test } from '@playwright/test';
import { APP_HALF } from '../playwright.config';
import { ChatPage } from './pages/chat';

test('with two model servers and one down, the page says which, and replies come from the other', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open(`${APP_HALF}/`);
  const notice = page.getByTestId('model-servers-notice');
  await expect(notice).toContainText('1 of 2 model servers cannot be reached (http://127.0.0.1:9/v1)');
  await expect(chat.banner).toHaveCount(0);
  await chat.ask('Hello, who answers?');
  await expect(chat.lastAnswer()).toContainText('You said: "Hello, who answers?"');
  const health = await (await page.request.get(`${APP_HALF}/api/health`)).json();
  expect(health.ok).toBe(true);
  expect(health.servers.map((s: { url: string; up: boolean }) => [s.url, s.up])).toEqual([
    ['http://127.0.0.1:9/v1', false],
    ['http://127.0.0.1:18080/v1', true],
  ]);
});
