import { expect, test } from '@playwright/test';
import { CODE_AND_MATH } from './double/persona';
import { ChatPage } from './pages/chat';

/**
 * Answers a user can act on: code blocks with their language, syntax highlighting and a copy
 * button; math set by KaTeX (never running \href); prices left as prices; a copy button for
 * the whole answer.
 */

test('code is highlighted and copied, math is set, prices stay prices, the answer copies whole', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Show me some code and math please.');
  await chat.waitForAnswer();
  const answer = chat.lastAnswer().getByTestId('answer');

  const blocks = answer.getByTestId('code-block');
  await expect(blocks).toHaveCount(2);
  await expect(blocks.getByTestId('code-language')).toHaveText(['ts', 'python']);
  for (const block of await blocks.all()) {
    await expect(block.locator('code')).toHaveAttribute('data-highlighted', 'true');
  }
  await expect(blocks.first().locator('.hljs-keyword').first()).toHaveText('function');
  await expect(blocks.nth(1).locator('.hljs-keyword').first()).toHaveText('def');

  await blocks.nth(1).getByTestId('copy-code').click();
  await expect(blocks.nth(1).getByTestId('copy-code')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('def area(r):\n    return 3.14159 * r ** 2');

  // One display formula; five set in all (A = πr², 4A, Fibonacci's between single dollars, E = mc², and the \href, shown but never a link).
  await expect(answer.locator('.katex-display')).toHaveCount(1);
  await expect(answer.locator('.katex')).toHaveCount(5);
  await expect(answer.locator('.katex').nth(2)).toContainText('F_n');
  await expect(answer.locator('.katex').last()).toContainText('\\href');
  await expect(answer).toContainText('A coffee costs $5 and a sandwich $10.');
  await expect(answer.locator('a[href^="javascript"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();

  await chat.lastAnswer().getByTestId('copy-answer').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE_AND_MATH);
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});

test('an answer of 2,000 nested blockquotes renders flattened past a depth, and its thread opens again', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Write deeply nested quotes please.');
  await chat.waitForAnswer();
  const answer = chat.lastAnswer().getByTestId('answer');
  await expect(answer).toContainText('the bottom of the well');
  expect(await answer.locator('blockquote').count()).toBeLessThanOrEqual(24);
  // Opened afresh (server-rendered, then hydrated), the thread shows it again.
  await page.reload();
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('the bottom of the well');
  expect(errors).toEqual([]);
});
