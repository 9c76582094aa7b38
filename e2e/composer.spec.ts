import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

/**
 * Sending while a reply is still being written: the text stays and the page says why; Esc
 * stops the reply; what was typed survives a reload, per thread.
 */

test('Enter during a reply keeps the text and says so; Esc stops; the draft survives a reload', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Please answer slowly.');
  await expect(chat.stop).toBeVisible();
  await chat.composer.fill('My next question, typed while it writes');
  await chat.composer.press('Enter');
  await expect(page.getByTestId('composer-hint')).toContainText('The reply is still being written. Press Esc or Stop');
  await expect(chat.composer).toHaveValue('My next question, typed while it writes');

  await page.keyboard.press('Escape');
  await expect(chat.lastAnswer()).toHaveAttribute('data-status', 'interrupted');
  await expect(page.getByTestId('composer-hint')).toHaveCount(0);
  await expect(chat.composer).toHaveValue('My next question, typed while it writes');

  const threadId = chat.threadId();
  await page.reload();
  await expect(chat.composer).toHaveValue('My next question, typed while it writes');
  await chat.newChat();
  await expect(chat.composer).toHaveValue('', { timeout: 5000 });
  await chat.composer.fill('a draft for a new chat');
  await chat.thread(threadId).getByTestId('thread-link').click();
  await expect(chat.composer).toHaveValue('My next question, typed while it writes');

  await chat.composer.press('Enter');
  await chat.waitForAnswer();
  await page.reload();
  await expect(chat.composer).toHaveValue('', { timeout: 5000 });
  await page.request.delete(`/api/threads/${threadId}`);
});

test('keyboard: "?" lists the shortcuts, Esc closes the list, Ctrl+Shift+O starts a new chat, Ctrl+K searches', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Hello there');
  await chat.waitForAnswer();
  const threadId = chat.threadId();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  const list = page.getByTestId('shortcuts');
  await expect(list).toBeVisible();
  await expect(list).toContainText('Ctrl+Shift+O');
  await expect(list).toContainText('New chat');
  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);

  await chat.composer.focus();
  await chat.composer.press('?');
  await expect(list).toHaveCount(0, { timeout: 1000 });
  await expect(chat.composer).toHaveValue('?');
  await chat.composer.fill('');

  await page.keyboard.press('Control+Shift+O');
  await expect(page).toHaveURL(/\/$/);
  await page.keyboard.press('Control+K');
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.request.delete(`/api/threads/${threadId}`);
});
