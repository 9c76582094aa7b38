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
  await expect(page.getByTestId('message-attachment')).toHaveText('shopping.txt');
  // A sent file opens: its text in a viewer, with a download of the file as it came.
  await page.getByTestId('message-attachment').click();
  const viewer = page.getByTestId('file-viewer');
  await expect(viewer.getByTestId('file-text')).toHaveText('Milk, eggs and 3 lemons\nbread');
  const [download] = await Promise.all([page.waitForEvent('download'), viewer.getByTestId('file-download').click()]);
  expect(download.suggestedFilename()).toBe('shopping.txt');
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await expect(page.getByTestId('message-attachment')).toBeFocused();
});

test('a file Hearth cannot read is refused with a clear message', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]) });
  await expect(page.getByTestId('notice')).toContainText('photo.png');
  await expect(page.getByTestId('notice')).toContainText(
    'reads text, code, logs, tables (CSV, TSV, Excel .xlsx, OpenDocument .ods), PDF and Word',
  );
  await expect(page.getByTestId('pending-attachment')).toHaveCount(0);
});
