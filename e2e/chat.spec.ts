import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

test('chat with the model, see it stream, reload and find the conversation', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Hello, who are you?');
  await expect(chat.userMessages.last()).toHaveText('Hello, who are you?');
  await expect(page).toHaveURL(/\/t\/[\w-]+$/);
  await chat.waitForAnswer();
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('You said: "Hello, who are you?"');
  const id = chat.threadId();
  // The model's title (the double writes the question's words, capitalised), written after the first exchange.
  await expect(chat.thread(id)).toContainText('Hello Who Are You');

  await page.reload();
  await expect(chat.userMessages).toHaveCount(1);
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('I am the test double');
  await expect(page.getByTestId('thread-title')).toHaveText('Hello Who Are You');
});

test('Enter sends, Shift+Enter adds a line', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.composer.fill('first line');
  await chat.composer.press('Shift+Enter');
  await chat.composer.pressSequentially('second line');
  await expect(chat.composer).toHaveValue('first line\nsecond line');
  await chat.composer.press('Enter');
  await expect(chat.userMessages.last()).toHaveText('first line\nsecond line');
  await expect(chat.composer).toHaveValue('');
  await chat.waitForAnswer();
});

test('model markdown renders, and raw HTML in it never runs', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('markdown test please');
  await chat.waitForAnswer();
  const answer = chat.lastAnswer().getByTestId('answer');
  await expect(answer.locator('table td').first()).toHaveText('apple');
  await expect(answer.locator('del')).toHaveText('old');
  await expect(answer.locator('pre code')).toContainText('const x: number = 1;');
  await expect(answer.locator('script')).toHaveCount(0);
  await expect(answer.locator('img[onerror]')).toHaveCount(0);
  const link = answer.getByText('click');
  await expect(link).not.toHaveAttribute('href', /javascript:/);
  expect(await page.evaluate(() => (window as unknown as { __hearthPwned?: boolean }).__hearthPwned)).toBeUndefined();
});

test('rename and delete threads from the sidebar', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('A thread to rename');
  await chat.waitForAnswer();
  const id = chat.threadId();
  const row = chat.thread(id);
  await (await chat.threadAction(id, 'rename-thread')).click();
  const input = row.getByTestId('rename-input');
  await input.fill('Renamed thread');
  await input.press('Enter');
  await expect(row).toContainText('Renamed thread');
  await expect(page.getByTestId('thread-title')).toHaveText('Renamed thread');
  await page.reload();
  await expect(chat.thread(id)).toContainText('Renamed thread');

  // Delete, then Undo: the thread is back, and the server never lost it.
  await (await chat.threadAction(id, 'delete-thread')).click();
  await chat.thread(id).getByTestId('confirm-delete').click();
  await expect(chat.thread(id)).toHaveCount(0);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('undo-delete')).toContainText('Deleted “Renamed thread”.');
  await page.getByTestId('undo').click();
  await expect(chat.thread(id)).toHaveCount(1);
  expect((await page.request.get(`/api/threads/${id}`)).status()).toBe(200);
  // Delete again, for good this time.
  await (await chat.threadAction(id, 'delete-thread')).click();
  await chat.thread(id).getByTestId('confirm-delete').click();
  await page.getByTestId('delete-now').click();
  await expect(page.getByTestId('undo-delete')).toHaveCount(0);
  await expect(chat.thread(id)).toHaveCount(0);
  await expect.poll(async () => (await page.request.get(`/api/threads/${id}`)).status()).toBe(404);
});

test('the stop button ends a reply and keeps what was written', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Please answer slowly');
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('word3');
  await chat.stop.click();
  await expect(chat.lastAnswer()).toHaveAttribute('data-status', 'interrupted');
  await expect(chat.send).toBeVisible();
  await page.reload();
  await expect(chat.lastAnswer()).toHaveAttribute('data-status', 'interrupted');
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('word0 word1 word2 word3');
  await expect(chat.lastAnswer().getByTestId('answer')).not.toContainText('word119');
});

test('reloading while a reply streams re-attaches and misses nothing', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Answer slowly one more time');
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('word2');
  await page.reload();
  await expect(chat.lastAnswer()).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
  const text = await chat.lastAnswer().getByTestId('answer').innerText();
  expect(text).toContain('word0 word1 word2');
  expect(text).toContain('word119');
});
