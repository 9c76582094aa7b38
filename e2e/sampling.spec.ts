import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

/**
 * Sampling per thread (issue 46, what users of other apps looked for): set in the thread header,
 * saved as a box is left, kept over a reload, sent with the thread's replies; a value out of range
 * is refused in words and the boxes go back to what is in force.
 */

test('a thread’s temperature is set in its header, kept over a reload, and put back to the server’s default', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Hello, this starts a thread.');
  await chat.waitForAnswer();
  const menu = page.getByTestId('thread-sampling');
  await menu.locator('summary').click();
  const temperature = page.getByTestId('sampling-temperature');
  await expect(temperature).toHaveValue('');
  await temperature.fill('0.4');
  await temperature.press('Enter');
  await expect(menu.locator('summary')).toHaveText('Sampling · temperature 0.4');
  const thread = async () => (await (await page.request.get(`/api/threads/${chat.threadId()}`)).json()) as { sampling: unknown };
  expect((await thread()).sampling).toEqual({ temperature: 0.4 });

  await page.reload();
  await expect(page.getByTestId('thread-sampling').locator('summary')).toHaveText('Sampling · temperature 0.4');

  // Out of range: said in words, and the box shows what is in force again.
  await page.getByTestId('thread-sampling').locator('summary').click();
  await temperature.fill('5');
  await temperature.press('Enter');
  await expect(page.getByText('Temperature: must be at most 2')).toBeVisible();
  await expect(temperature).toHaveValue('0.4');
  expect((await thread()).sampling).toEqual({ temperature: 0.4 });

  await page.getByTestId('sampling-defaults').click();
  await expect(page.getByTestId('thread-sampling').locator('summary')).toHaveText('Sampling');
  await expect(temperature).toHaveValue('');
  expect((await thread()).sampling).toBeNull();
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});
