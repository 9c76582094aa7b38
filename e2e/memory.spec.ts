import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

test('remember a fact, see a refusal with its reason, forget the fact', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const panel = page.getByTestId('memory-panel');
  await panel.locator('summary').click();
  await panel.getByTestId('memory-input').fill('I am vegetarian');
  await panel.getByTestId('memory-add').click();
  await expect(panel.getByTestId('memory-fact')).toHaveText(['I am vegetarianEditForget']);
  await panel.getByTestId('memory-input').fill('my password is hunter2');
  await panel.getByTestId('memory-add').click();
  await expect(panel.getByTestId('memory-error')).toContainText('password, key or token');
  await expect(panel.getByTestId('memory-input')).toHaveValue('my password is hunter2');
  await page.reload();
  await page.getByTestId('memory-panel').locator('summary').click();
  await expect(page.getByTestId('memory-fact')).toHaveCount(1);
  await page.getByTestId('memory-forget').click();
  await expect(page.getByTestId('memory-fact')).toHaveCount(0);
});

test('a fact said in the chat is remembered: the turn shows it and the Memory panel gains it without a reload', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const panel = page.getByTestId('memory-panel');
  await panel.locator('summary').click();
  const before = await panel.getByTestId('memory-fact').count();
  await chat.ask("Remember that I'm allergic to peanuts");
  await chat.waitForAnswer();
  await expect(chat.lastAnswer().getByTestId('memory-change')).toHaveText('Remembered: The user is allergic to peanuts.');
  await expect(chat.lastAnswer()).toContainText("I'll remember that you are allergic to peanuts");
  const fact = panel.getByTestId('memory-fact').filter({ hasText: 'The user is allergic to peanuts.' });
  await expect(fact).toHaveCount(1);
  await expect(panel.getByTestId('memory-fact')).toHaveCount(before + 1);
  // Forgotten from the chat, it leaves the panel too.
  await chat.ask("Forget that I'm allergic to peanuts");
  await chat.waitForAnswer();
  await expect(chat.lastAnswer().getByTestId('memory-change')).toHaveText('Forgot: The user is allergic to peanuts.');
  await expect(fact).toHaveCount(0);
});

test('a fact applies without sharing a word with the question, the answer names it, and the fact can be edited', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const panel = page.getByTestId('memory-panel');
  await panel.locator('summary').click();
  await panel.getByTestId('memory-input').fill('I am vegetarian');
  await panel.getByTestId('memory-add').click();
  const fact = panel.getByTestId('memory-fact').filter({ hasText: 'I am vegetarian' });
  await expect(fact).toHaveCount(1);
  try {
    await chat.newChat();
    await chat.ask('Suggest a dinner recipe for me');
    await chat.waitForAnswer();
    await expect(chat.lastAnswer().getByTestId('answer')).toContainText('Since you are vegetarian');
    await expect(chat.lastAnswer().getByTestId('remembered')).toHaveText('From memory: I am vegetarian');
    await page.reload();
    await expect(chat.lastAnswer().getByTestId('remembered-fact')).toHaveText(['I am vegetarian']);

    // Edited in place: Enter keeps the new words, after a reload too.
    await page.getByTestId('memory-panel').locator('summary').click();
    await fact.getByTestId('memory-edit').click();
    await page.getByTestId('memory-edit-input').fill('I am vegan');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('memory-fact').filter({ hasText: 'I am vegan' })).toHaveCount(1);
    await page.reload();
    await page.getByTestId('memory-panel').locator('summary').click();
    await expect(page.getByTestId('memory-fact').filter({ hasText: 'I am vegan' })).toHaveCount(1);
    await expect(page.getByTestId('memory-fact').filter({ hasText: 'I am vegetarian' })).toHaveCount(0);
  } finally {
    const { memories } = (await (await page.request.get('/api/memories')).json()) as { memories: { id: string; text: string }[] };
    for (const m of memories.filter((x) => /^I am veg/.test(x.text))) await page.request.delete(`/api/memories/${m.id}`);
  }
});
