import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

test('search finds an earlier conversation and opens it', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Tell me about quokkas on Rottnest');
  await chat.waitForAnswer();
  const id = chat.threadId();
  await chat.newChat();
  await page.getByTestId('search-input').fill('quokkas');
  await page.getByTestId('search-input').press('Enter');
  await expect(page.getByTestId('search-hit').first()).toContainText(/quokkas/i);
  await page.getByTestId('search-hit').first().click();
  await expect(page).toHaveURL(new RegExp(`/t/${id}$`));
  await expect(chat.userMessages.first()).toHaveText('Tell me about quokkas on Rottnest');
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
  const requests = (await (await page.request.get('http://127.0.0.1:18080/__requests')).json()) as { messages: { role: string; content: string }[] }[];
  const last = requests.filter((r) => !('response_format' in r)).at(-1)!;
  expect(last.messages[0].content).toContain('Always answer like a pirate.');
  await page.reload();
  await page.getByTestId('edit-instructions').click();
  await expect(page.getByTestId('instructions-input')).toHaveValue('Always answer like a pirate.');
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
