import { expect, test, type Page } from '@playwright/test';
import { ChatPage } from './pages/chat';

/** A message of the branch shown, by its place (0 = the first). */
const message = (page: Page, index: number) => page.locator('[data-message-id]').nth(index);

test('regenerate an answer, move between versions, and find the one chosen after a reload', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const question = `Draw a card, regenerate test ${Date.now()}`;
  await chat.ask(question);
  await chat.waitForAnswer();
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('Card number 1');
  await expect(message(page, 1).getByTestId('versions')).toHaveCount(0);

  await message(page, 1).getByTestId('regenerate').click();
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('Card number 2');
  await chat.waitForAnswer();
  await expect(chat.assistantMessages).toHaveCount(1);
  await expect(message(page, 1).getByTestId('version-label')).toHaveText('2 / 2');

  await message(page, 1).getByTestId('version-previous').click();
  await expect(message(page, 1).getByTestId('version-label')).toHaveText('1 / 2');
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('Card number 1');
  await expect(message(page, 1).getByTestId('version-previous')).toBeDisabled();

  // The thread remembers the version shown.
  await page.reload();
  await expect(message(page, 1).getByTestId('version-label')).toHaveText('1 / 2');
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('Card number 1');
  await message(page, 1).getByTestId('version-next').click();
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('Card number 2');
});

test('edit a question and send it again; the conversation as it was stays one arrow away; Up edits the last question', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const stamp = Date.now();
  await chat.ask(`First question ${stamp}`);
  await chat.waitForAnswer();
  await chat.ask(`Second question ${stamp}`);
  // The first answer is complete too: wait for the second exchange itself before the last answer.
  await expect(chat.userMessages).toHaveCount(2);
  await expect(chat.assistantMessages).toHaveCount(2);
  await chat.waitForAnswer();

  // Up in the empty message box edits the last question; Esc leaves it as it was.
  await chat.composer.press('ArrowUp');
  await expect(page.getByTestId('edit-box')).toBeFocused();
  await expect(page.getByTestId('edit-box')).toHaveValue(`Second question ${stamp}`);
  await page.getByTestId('edit-box').press('Escape');
  await expect(page.getByTestId('edit-box')).toHaveCount(0);

  await message(page, 0).getByTestId('edit-message').click();
  await page.getByTestId('edit-box').fill(`A better first question ${stamp}`);
  await page.getByTestId('edit-box').press('Enter');
  await chat.waitForAnswer();
  await expect(chat.userMessages).toHaveCount(1);
  await expect(chat.userMessages.first()).toHaveText(`A better first question ${stamp}`);
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText(`You said: "A better first question ${stamp}"`);
  await expect(message(page, 0).getByTestId('version-label')).toHaveText('2 / 2');

  await message(page, 0).getByTestId('version-previous').click();
  await expect(chat.userMessages).toHaveCount(2);
  await expect(chat.userMessages.nth(0)).toHaveText(`First question ${stamp}`);
  await expect(chat.userMessages.nth(1)).toHaveText(`Second question ${stamp}`);
  await page.reload();
  await expect(chat.userMessages).toHaveCount(2);
  await expect(message(page, 0).getByTestId('version-label')).toHaveText('1 / 2');
});

test('delete a message and what follows it, after saying so once more', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const stamp = Date.now();
  await chat.ask(`Keep this ${stamp}`);
  await chat.waitForAnswer();
  await chat.ask(`Drop this ${stamp}`);
  await chat.waitForAnswer();
  await expect(chat.userMessages).toHaveCount(2);

  await message(page, 2).getByTestId('delete-message').click();
  await expect(message(page, 2).getByTestId('confirm-delete-message')).toBeFocused();
  await message(page, 2).getByRole('button', { name: 'Cancel' }).click();
  await expect(chat.userMessages).toHaveCount(2);

  await message(page, 2).getByTestId('delete-message').click();
  await message(page, 2).getByTestId('confirm-delete-message').click();
  await expect(chat.userMessages).toHaveCount(1);
  await expect(chat.assistantMessages).toHaveCount(1);
  await page.reload();
  await expect(chat.userMessages).toHaveCount(1);
  await expect(chat.userMessages.first()).toHaveText(`Keep this ${stamp}`);
});
