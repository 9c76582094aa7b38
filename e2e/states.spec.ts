import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

/** The states a user meets beside a good answer: the empty chat, a stopped reply, a failed tool, a reply out of budget. */

test.afterEach(async ({ request }) => {
  const res = await request.patch('/api/settings', { data: { turnFuel: null, searxngUrl: null } });
  expect(res.status()).toBe(200);
});

test('the empty chat offers questions to start with; a click puts one in the message box', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await expect(page.getByTestId('welcome')).toBeVisible();
  await expect(page.getByTestId('example-prompt')).toHaveCount(4);
  await page.getByTestId('example-prompt').nth(1).click();
  await expect(chat.composer).toHaveValue('What is 17.5% of 2,340, plus 19% VAT?');
  await expect(chat.composer).toBeFocused();
});

test("the weather example asks for the place Settings names, and with none set is not offered as 'where I live'", async ({
  page,
  request,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await expect(page.getByTestId('example-prompt').first()).toHaveText('What are the top news stories today?');
  await expect(page.getByTestId('welcome')).not.toContainText('where I live');
  try {
    expect((await request.patch('/api/settings', { data: { location: 'Bergen, Norway' } })).status()).toBe(200);
    await chat.open();
    await expect(page.getByTestId('example-prompt').first()).toHaveText('What is the weather in Bergen, Norway today?');
  } finally {
    await request.patch('/api/settings', { data: { location: null } });
  }
});

test('a stopped reply is marked, and Retry writes a new answer beside the partial one', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask(`Please answer slowly, retry test ${Date.now()}`);
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('word2');
  await chat.stop.click();
  await expect(chat.lastAnswer()).toHaveAttribute('data-status', 'interrupted');
  await expect(chat.lastAnswer().getByTestId('interrupted-note')).toHaveText('Stopped. The partial answer was kept.');
  const retry = page.locator('[data-message-id]').nth(1).getByTestId('retry');
  await expect(retry).toBeVisible();
  await retry.click();
  await expect(chat.lastAnswer()).toHaveAttribute('data-status', 'streaming');
  await chat.stop.click();
  await expect(chat.lastAnswer()).toHaveAttribute('data-status', 'interrupted');
  await expect(page.locator('[data-message-id]').nth(1).getByTestId('version-label')).toHaveText('2 / 2');
  await page.locator('[data-message-id]').nth(1).getByTestId('version-previous').click();
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('word0 word1 word2');
});

test('a tool that fails is shown as failed with the reason, and the reply still comes', async ({ page, request }) => {
  expect((await request.patch('/api/settings', { data: { searxngUrl: 'http://127.0.0.1:9' } })).status()).toBe(200);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('What is the price of silver today?');
  await chat.waitForAnswer();
  const card = chat.lastAnswer().locator('[data-testid="tool-call"][data-tool="web_search"]').first();
  await expect(card).toHaveAttribute('data-ok', 'false');
  await expect(card.getByTestId('tool-call-outcome')).toHaveText('✗ failed');
  await card.locator('summary').click();
  await expect(card.getByTestId('tool-call-preview')).toContainText('failed: the search service did not answer');
  await expect(chat.lastAnswer()).toHaveAttribute('data-status', 'complete');
});

test('a reply out of budget says so, and where to raise the budget; after a reload too', async ({ page, request }) => {
  expect((await request.patch('/api/settings', { data: { turnFuel: 100 } })).status()).toBe(200);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('What is the price of platinum today?');
  await chat.waitForAnswer();
  const error = chat.lastAnswer().getByTestId('turn-error');
  await expect(error).toHaveAttribute('data-code', 'budget_exhausted');
  await expect(error).toContainText('used its whole budget');
  await expect(error.getByTestId('turn-error-next')).toContainText('Raise the turn budget in Settings');
  await expect(error.getByTestId('turn-error-settings')).toHaveAttribute('href', '/settings');
  await page.reload();
  await expect(chat.lastAnswer().getByTestId('turn-error')).toContainText('This reply used its whole budget');
  await expect(page.locator('[data-message-id]').nth(1).getByTestId('retry')).toBeVisible();
});

test('while another reply holds the only model slot, the stage line says the reply waits, and its place in the queue', async ({
  page,
  context,
}) => {
  const first = new ChatPage(page);
  await first.open();
  await first.ask(`Please answer very slowly, queue test ${Date.now()}`);
  await expect(first.lastAnswer().getByTestId('answer')).toContainText('word1');
  // A second tab, another thread: the app runs with one slot (MODEL_SLOTS=1), so it queues.
  const other = await context.newPage();
  const second = new ChatPage(other);
  await second.open();
  await second.ask('Hello from the queue');
  await expect(second.lastAnswer().getByTestId('turn-status')).toHaveText('Waiting for the model: next in line…');
  await first.stop.click();
  await second.waitForAnswer();
  await expect(second.lastAnswer().getByTestId('answer')).toContainText('Hello from the queue');
  await other.close();
});
