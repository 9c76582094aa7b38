import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

/**
 * A thinking model's reply: the Thinking block streams open with a live count, folds once the
 * answer begins with how long it took, is not the answer (nor in what Copy takes), and comes
 * back folded after a reload. The thread's own Thinking choice reaches the model's request.
 */

test('thinking streams in its own block, folds when the answer begins, and comes back after a reload', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Please think it through: what is six times seven?');
  const block = chat.lastAnswer().getByTestId('thinking');
  // While it thinks: open, counting, and the stage line says so.
  await expect(block).toHaveAttribute('data-done', 'false');
  await expect(block).toHaveAttribute('open', '');
  await expect(block.getByTestId('thinking-label')).toContainText(/Thinking… \d+ tokens?/);
  await expect(chat.lastAnswer().getByTestId('turn-status')).toContainText(/Thinking… \d+ tokens?/);
  await chat.waitForAnswer();
  const answer = chat.lastAnswer().getByTestId('answer');
  await expect(answer).toHaveText(/After thinking it through: the answer is 42\./);
  await expect(answer).not.toContainText('step10');
  await expect(block).toHaveAttribute('data-done', 'true');
  await expect(block).not.toHaveAttribute('open', '');
  await expect(block.getByTestId('thinking-label')).toHaveText(/Thought for [\d.]+ (ms|s) · \d+ tokens/);
  await expect(chat.lastAnswer().getByTestId('answer-figures')).toContainText('thought');
  await chat.lastAnswer().getByTestId('copy-answer').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('After thinking it through: the answer is 42.');

  await page.reload();
  const again = chat.lastAnswer().getByTestId('thinking');
  await expect(again).toHaveAttribute('data-done', 'true');
  await expect(again).not.toHaveAttribute('open', '');
  await again.getByTestId('thinking-label').click();
  await expect(again.getByTestId('thinking-text')).toContainText('The user wants me to think it through.');
  await expect(again.getByTestId('thinking-text')).toContainText('So the answer is 42.');
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});

test('a thread set to think off asks the model so, and search finds thinking only when asked', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Please think it through: what is five times eight?');
  await chat.waitForAnswer();
  await page.getByTestId('thread-thinking').selectOption('off');
  await expect(page.getByTestId('thread-thinking')).toHaveValue('off');
  const thread = (await (await page.request.get(`/api/threads/${chat.threadId()}`)).json()) as { thinking: string | null };
  expect(thread.thinking).toBe('off');
  await chat.ask('Please think it through again: what is two times three?');
  await chat.waitForAnswer();
  await expect(chat.lastAnswer().getByTestId('thinking')).toHaveCount(0);
  // The words of the first reply's thinking: not found by a plain search, found when thinking is asked for.
  const plain = (await (await page.request.get('/api/search?q=step17')).json()) as { results: { kind: string }[] };
  expect(plain.results.filter((r) => r.kind === 'thinking')).toEqual([]);
  const asked = (await (await page.request.get('/api/search?q=step17&thinking=true')).json()) as { results: { kind: string }[] };
  expect(asked.results.some((r) => r.kind === 'thinking')).toBe(true);
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});

test('a model that does not think: the stage line says "Writing…" while the answer streams, never "Thinking…" (issue 46)', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Please answer slowly, stage line test');
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('word3');
  await expect(chat.lastAnswer().getByTestId('turn-status')).toHaveText('Writing…');
  await expect(chat.lastAnswer().getByTestId('thinking')).toHaveCount(0);
  await chat.stop.click();
  await expect(chat.lastAnswer()).toHaveAttribute('data-status', 'interrupted');
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});
