import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

test('Ctrl+K finds an old message as you type and opens its thread scrolled to it, highlighted', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Tell me about quokkas on Rottnest');
  await chat.waitForAnswer();
  const id = chat.threadId();
  const quokkaMessage = await page.locator('[data-message-id]').first().getAttribute('data-message-id');
  // Later, longer messages push it far up the thread.
  for (let i = 1; i <= 3; i++) {
    await chat.ask(
      Array.from({ length: 25 }, (_, n) => `Note ${i}.${n}: the ferry timetable for the island changes in winter.`).join('\n'),
    );
    await chat.waitForAnswer();
  }
  await chat.newChat();
  await page.keyboard.press('Control+k');
  const dialog = page.getByTestId('quick-search');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('quick-search-input')).toBeFocused();
  await page.keyboard.type('rottn');
  const hit = page.locator('[data-testid="quick-search-hit"][data-kind="message"][data-role="user"]').first();
  await expect(hit).toContainText('Rottnest');
  await expect(hit.locator('mark').first()).toHaveText('Rottnest');
  await hit.click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/t/${id}#m-${quokkaMessage}$`));
  const landed = page.locator(`[data-message-id="${quokkaMessage}"]`);
  await expect(landed).toHaveAttribute('data-highlighted', 'true');
  await expect(landed).toBeInViewport();
  await expect(page.getByTestId('user-message').last()).not.toBeInViewport();

  // The sidebar button opens the same dialog; the keyboard picks a hit; Escape closes it.
  await page.getByTestId('open-search').click();
  await page.keyboard.type('ferry timetable');
  await expect(page.getByTestId('quick-search-hit').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test("a thread's instructions are saved and reach the model", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('First message');
  await chat.waitForAnswer();
  await page.getByTestId('edit-instructions').click();
  await page.getByTestId('instructions-input').fill('Always answer like a pirate.');
  await page.getByTestId('save-instructions').click();
  await expect(page.getByTestId('edit-instructions')).toHaveText('Instructions ✓');
  await chat.ask('Second message');
  await chat.waitForAnswer();
  const requests = (await (await page.request.get('http://127.0.0.1:18080/__requests')).json()) as {
    messages: { role: string; content: string }[];
  }[];
  const last = requests.filter((r) => !('response_format' in r)).at(-1)!;
  expect(last.messages[0].content).toContain('Always answer like a pirate.');
  await page.reload();
  await page.getByTestId('edit-instructions').click();
  await expect(page.getByTestId('instructions-input')).toHaveValue('Always answer like a pirate.');
});

test('the instructions popover closes when focus moves to the message box, keeping what was typed', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('A message first');
  await chat.waitForAnswer();
  await page.getByTestId('edit-instructions').click();
  await page.getByTestId('instructions-input').fill('Be brief.');
  await chat.composer.focus();
  await expect(page.getByTestId('instructions-popover')).toHaveCount(0);
  await expect(page.getByTestId('edit-instructions')).toHaveText('Instructions (not saved)');
  await page.getByTestId('edit-instructions').click();
  await expect(page.getByTestId('instructions-input')).toHaveValue('Be brief.');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('instructions-popover')).toHaveCount(0);
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});

test('on a phone-sized screen the thread list opens from the header', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Hello from a phone');
  await chat.waitForAnswer();
  await expect(page.getByTestId('thread-list')).toBeHidden();
  await page.getByTestId('open-sidebar').click();
  await expect(page.getByTestId('thread-list')).toBeVisible();
  await page.getByTestId('new-thread').click();
  await expect(page.getByTestId('thread-list')).toBeHidden();
  await expect(chat.composer).toBeVisible();
  // No keyboard shortcut hint where there is usually no keyboard; a new chat straight from the header.
  await page.getByTestId('open-sidebar').click();
  await expect(page.getByTestId('search-shortcut')).toBeHidden();
  await page.getByTestId('thread-link').first().click();
  await expect(page.getByTestId('thread-list')).toBeHidden();
  await expect(page).toHaveURL(/\/t\/[0-9a-f-]{36}$/);
  await page.getByTestId('header-new-chat').click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('welcome')).toBeVisible();
});

test('a thread in the sidebar is a link: its address opens the thread in a new tab; a plain click opens it here', async ({
  page,
  context,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newChat();
  await chat.ask(`Link me ${Date.now()}`);
  await chat.waitForAnswer();
  const id = chat.threadId();
  await expect(page.getByTestId('search-shortcut')).toBeVisible();
  const link = chat.thread(id).getByTestId('thread-link');
  await expect(link).toHaveAttribute('href', `/t/${id}`);
  await chat.newChat();
  // Ctrl+click: the browser's own new tab, with the thread in it.
  const [tab] = await Promise.all([context.waitForEvent('page'), link.click({ modifiers: ['Control'] })]);
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe(`/t/${id}`);
  await expect(tab.getByTestId('user-message').first()).toContainText('Link me');
  await tab.close();
  await expect(page).toHaveURL(/\/$/);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/t/${id}$`));
  await expect(page.getByTestId('user-message').first()).toContainText('Link me');
  await page.request.delete(`/api/threads/${id}`);
});

test('a new thread gets the title the model wrote after its first exchange, in the sidebar without a reload', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newChat();
  await chat.ask('Explain how a sourdough starter works');
  await chat.waitForAnswer();
  // The double titles as a small model would: the question's first content words.
  await expect(chat.thread(chat.threadId())).toContainText('Sourdough Starter Works');
});
