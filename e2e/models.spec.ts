import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';
import { ROUTER_URL } from '../playwright.config';

/**
 * A model per thread (issue 31): with a second model server in router mode beside the
 * double, the thread header offers every model; the one picked for a new chat is the
 * thread's, kept over a reload and named under each answer; Regenerate can ask another model,
 * and the versions say which model wrote which.
 */

const MAIN_URL = 'http://127.0.0.1:18080/v1';

test.beforeEach(async ({ page }) => {
  const res = await page.request.patch('/api/settings', {
    data: {
      modelServers: [
        { url: MAIN_URL, model: '' },
        { url: ROUTER_URL, model: '' },
      ],
    },
  });
  expect(res.status()).toBe(200);
});
test.afterEach(async ({ page }) => {
  // Back to the servers of the environment: the other specs see one model server.
  expect((await page.request.patch('/api/settings', { data: { modelServers: null } })).status()).toBe(200);
});

test('a model picked for a thread is kept over a reload and named under each answer; Regenerate with another model says which wrote which', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open('/');
  const picker = page.getByTestId('thread-model');
  await expect(picker.locator('option')).toHaveText([/^Default/, 'tiny-toy', 'qwen3-4b', 'qwen3-30b-a3b · loads when used']);

  // Picked before the first message: the new thread has it from its first turn.
  await picker.selectOption('qwen3-30b-a3b');
  await chat.ask('What is the capital of France?');
  await chat.waitForAnswer();
  await expect(chat.lastAnswer()).toHaveAttribute('data-status', 'complete');
  await expect(chat.lastAnswer().getByTestId('answer-model')).toHaveText('qwen3-30b-a3b');
  const id = chat.threadId();

  await page.reload();
  await expect(page.getByTestId('thread-model')).toHaveValue('qwen3-30b-a3b');
  await expect(chat.lastAnswer().getByTestId('answer-model')).toHaveText('qwen3-30b-a3b');
  // Loaded now: the router says so, and the picker no longer warns that it loads when used.
  await expect(page.getByTestId('thread-model').locator('option', { hasText: 'qwen3-30b-a3b' })).toHaveText('qwen3-30b-a3b');

  // Another model for one answer: a second version, named as such; the thread keeps its model.
  await page.getByTestId('regenerate-with').selectOption('tiny-toy');
  await chat.waitForAnswer();
  await expect(chat.lastAnswer().getByTestId('answer-model')).toHaveText('tiny-toy');
  await expect(page.getByTestId('version-label')).toHaveText('2 / 2');
  await expect(page.getByTestId('version-label')).toHaveAttribute('title', 'Version 2 of 2, by tiny-toy');
  await expect(page.getByTestId('version-previous')).toHaveAttribute('aria-label', 'Previous version, by qwen3-30b-a3b');
  await expect(page.getByTestId('thread-model')).toHaveValue('qwen3-30b-a3b');
  await page.getByTestId('version-previous').click();
  await expect(chat.lastAnswer().getByTestId('answer-model')).toHaveText('qwen3-30b-a3b');

  // Back to the default: each server answers with its own model, and the answer names it.
  await page.getByTestId('thread-model').selectOption('');
  await expect(page.getByTestId('thread-model').locator('option').first()).toHaveText("Default (each server's own)");
  await chat.ask('And of Italy?');
  await chat.waitForAnswer();
  await expect(chat.lastAnswer().getByTestId('answer-model')).toHaveText(/^(tiny-toy|qwen3-4b)$/);
  await page.request.delete(`/api/threads/${id}`);
});
