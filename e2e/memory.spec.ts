import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

test('remember a fact, see a refusal with its reason, forget the fact', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const panel = page.getByTestId('memory-panel');
  await panel.locator('summary').click();
  await panel.getByTestId('memory-input').fill('I am vegetarian');
  await panel.getByTestId('memory-add').click();
  await expect(panel.getByTestId('memory-fact')).toHaveText(['I am vegetarianForget']);
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
