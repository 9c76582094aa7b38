import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

/**
 * Thumbs up or down on an answer (issue 46, what users of other apps looked for): pressed, kept
 * over a reload, counted beside the model in the thread's model picker, taken back by a second press.
 */

test('an answer rated with a thumb keeps it over a reload, and the model picker counts it beside the model', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('What is the capital of France?');
  await chat.waitForAnswer();
  // One answer in the thread: its thumbs are the page's only ones.
  const up = page.getByTestId('rate-up');
  const down = page.getByTestId('rate-down');
  await expect(up).toHaveCount(1);
  await expect(up).toHaveAttribute('aria-pressed', 'false');
  await up.click();
  await expect(up).toHaveAttribute('aria-pressed', 'true');
  await expect(down).toHaveAttribute('aria-pressed', 'false');

  await page.reload();
  await expect(up).toHaveAttribute('aria-pressed', 'true');
  const model = (await chat.lastAnswer().getByTestId('answer-model').textContent())!;
  await expect(page.getByTestId('thread-model').locator(`option[value="${model}"]`)).toContainText('your thumbs: 1 up, 0 down');

  // The other thumb replaces it; a second press takes it back.
  await down.click();
  await expect(down).toHaveAttribute('aria-pressed', 'true');
  await expect(up).toHaveAttribute('aria-pressed', 'false');
  await down.click();
  await expect(down).toHaveAttribute('aria-pressed', 'false');
  await page.reload();
  await expect(down).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('thread-model').locator(`option[value="${model}"]`)).not.toContainText('thumbs');
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});
