import { expect, test, type Page } from '@playwright/test';
import { ChatPage } from './pages/chat';

/** The thread header: one of each menu whatever was shown before, one menu open at a time. */

async function makeThread(page: Page, title: string): Promise<string> {
  const res = await page.request.post('/api/threads', { data: { title } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test('moving between threads without a reload leaves one of each header menu', async ({ page }) => {
  const stamp = Date.now();
  const first = await makeThread(page, `Header menus A ${stamp}`);
  const second = await makeThread(page, `Header menus B ${stamp}`);
  try {
    const chat = new ChatPage(page);
    await chat.open(`/t/${first}`);
    for (const id of [second, first, second, first]) {
      await chat.thread(id).getByTestId('thread-link').click();
      await expect(page).toHaveURL(new RegExp(`/t/${id}$`));
      await expect(page.getByTestId('thread-title')).toHaveText(`Header menus ${id === first ? 'A' : 'B'} ${stamp}`);
      await expect(page.getByTestId('edit-instructions')).toHaveCount(1);
      await expect(page.getByTestId('thread-tools')).toHaveCount(1);
      await expect(page.getByTestId('thread-knowledge')).toHaveCount(1);
      await expect(page.getByTestId('export-menu')).toHaveCount(1);
    }
  } finally {
    for (const id of [first, second]) await page.request.delete(`/api/threads/${id}`);
  }
});
