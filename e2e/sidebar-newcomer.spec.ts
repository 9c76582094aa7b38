import { expect, test, type Page } from '@playwright/test';
import { ChatPage } from './pages/chat';

/** The sidebar as a newcomer meets it: its order, its views, the keyboard, its panels. */

async function makeThread(page: Page, title: string): Promise<string> {
  const res = await page.request.post('/api/threads', { data: { title } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test('renaming a thread keeps its place in the list: a rename is not activity', async ({ page }) => {
  const stamp = Date.now();
  const older = await makeThread(page, `Rename order older ${stamp}`);
  const newer = await makeThread(page, `Rename order newer ${stamp}`);
  try {
    const chat = new ChatPage(page);
    await chat.open();
    const order = () =>
      page
        .getByTestId('thread-item')
        .evaluateAll((rows, ids) => rows.map((r) => r.getAttribute('data-thread-id')).filter((id) => ids.includes(id!)), [older, newer]);
    await expect.poll(order).toEqual([newer, older]);
    await (await chat.threadAction(older, 'rename-thread')).click();
    await page.getByTestId('rename-input').fill(`Renamed ${stamp}`);
    await page.getByTestId('rename-input').press('Enter');
    await expect(chat.thread(older)).toContainText(`Renamed ${stamp}`);
    // Read again from the server (a reload), so the list is the server's order, not the page's.
    await page.reload();
    await expect(chat.thread(older)).toContainText(`Renamed ${stamp}`);
    await expect.poll(order).toEqual([newer, older]);
  } finally {
    for (const id of [older, newer]) await page.request.delete(`/api/threads/${id}`);
  }
});

test('the Archive and a folder each have a heading naming what the list shows', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const list = page.getByRole('navigation', { name: 'Threads' });
  await page.getByTestId('view-archive').click();
  await expect(list.getByRole('heading', { name: 'Archive' })).toBeVisible();
  await page.getByTestId('view-all').click();
  await expect(list.getByRole('heading', { name: 'All conversations' })).toBeVisible();
});

test('the first Tab offers a skip to the message box, ahead of the thread list', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the message box' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(chat.composer).toBeFocused();
  // The page's landmarks: the conversation is a main region, the thread list a navigation one.
  await expect(page.getByRole('main')).toHaveCount(1);
  await expect(page.getByRole('navigation', { name: 'Threads' })).toHaveCount(1);
});

test('an open Memory panel leaves the thread list room to read', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const stamp = Date.now();
  const made: string[] = [];
  for (let i = 0; i < 14; i++) {
    const res = await page.request.post('/api/memories', {
      data: { text: `Squeeze test fact ${i} of ${stamp}: a longer sentence to wrap` },
    });
    expect(res.status()).toBe(201);
    made.push(((await res.json()) as { id: string }).id);
  }
  try {
    const chat = new ChatPage(page);
    await chat.open();
    const list = page.getByTestId('thread-list');
    const before = (await list.boundingBox())!.height;
    await page.getByTestId('memory-panel').locator('summary').click();
    await expect(page.getByTestId('memory-fact').first()).toBeVisible();
    const after = (await list.boundingBox())!.height;
    // At least a third of the window's height, and not less than half of what it had.
    expect(after).toBeGreaterThanOrEqual(Math.min(240, before / 2));
    // The panel itself is all there: its last fact can be scrolled to.
    await page.getByTestId('memory-fact').last().scrollIntoViewIfNeeded();
    await expect(page.getByTestId('memory-fact').last()).toBeInViewport();
  } finally {
    for (const id of made) await page.request.delete(`/api/memories/${id}`);
  }
});

test('on a desktop the thread list folds away for room to read, stays folded after a reload, and comes back', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  const list = page.getByRole('navigation', { name: 'Threads' });
  const main = page.locator('main').first();
  await expect(list).toBeVisible();
  const narrow = (await main.boundingBox())!.width;
  await page.getByTestId('hide-sidebar').click();
  await expect(list).toBeHidden();
  // The reading area takes the room, and the way back has focus.
  await expect.poll(async () => (await main.boundingBox())!.width).toBeGreaterThan(narrow + 200);
  await expect(page.getByTestId('show-sidebar')).toBeFocused();
  await page.reload();
  await expect(page.getByTestId('show-sidebar')).toBeVisible();
  await expect(list).toBeHidden();
  await page.getByTestId('show-sidebar').click();
  await expect(list).toBeVisible();
  await expect(page.getByTestId('hide-sidebar')).toBeFocused();
  await expect(page.getByTestId('show-sidebar')).toHaveCount(0);
  await page.reload();
  await expect(list).toBeVisible();
});

test('on a phone the fold does not apply: the list is the drawer, opened from the header', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 700 });
  await page.goto('/');
  await expect(page.getByTestId('hide-sidebar')).toBeHidden();
  await page.getByTestId('open-sidebar').click();
  await expect(page.getByRole('navigation', { name: 'Threads' })).toBeVisible();
});
