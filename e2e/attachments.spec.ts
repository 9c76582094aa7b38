import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

test('attach a text file, ask about it, and the answer reads it', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'shopping.txt', mimeType: 'text/plain', buffer: Buffer.from('Milk, eggs and 3 lemons\nbread') });
  await expect(page.getByTestId('pending-attachment')).toContainText('shopping.txt');
  await chat.ask('What is in the attached file?');
  await chat.waitForAnswer();
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('I read your file shopping.txt');
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('Milk, eggs and 3 lemons');
  await page.reload();
  await expect(page.getByTestId('message-attachment')).toHaveText('📄 shopping.txt');
});

test('a file Hearth cannot read is refused with a clear message', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]) });
  await expect(page.getByTestId('notice')).toContainText('photo.png');
  await expect(page.getByTestId('notice')).toContainText('reads text, code, logs, PDF and Word');
  await expect(page.getByTestId('pending-attachment')).toHaveCount(0);
});
