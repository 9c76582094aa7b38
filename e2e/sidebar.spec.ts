import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

/** The sidebar groups threads by when they were last active, pinned first. */

test('threads are grouped: pinned, today, older', async ({ page }) => {
  const chat = new ChatPage(page);
  // A thread last active in March, brought in as an import would (a library file).
  const old = '10000000-0000-4000-8000-00000000a001';
  const march = Date.UTC(2026, 2, 3, 12);
  const lines = [
    { type: 'hearth-library', version: 1, exportedAt: march },
    {
      type: 'thread',
      id: old,
      title: 'Spring planting notes',
      titleSource: 'user',
      systemPrompt: '',
      pinned: false,
      createdAt: march,
      updatedAt: march,
    },
  ];
  const body = [...lines, { type: 'end', records: lines.length - 1 }].map((l) => JSON.stringify(l)).join('\n');
  expect((await page.request.post('/api/import', { data: body, headers: { 'Content-Type': 'application/x-ndjson' } })).status()).toBe(200);
  const today = ((await (await page.request.post('/api/threads', { data: { title: 'Talked about today' } })).json()) as { id: string }).id;
  const pinned = ((await (await page.request.post('/api/threads', { data: { title: 'Keep this one on top' } })).json()) as { id: string })
    .id;
  expect((await page.request.patch(`/api/threads/${pinned}`, { data: { pinned: true } })).status()).toBe(200);
  try {
    await chat.open();
    const group = (label: string) => page.locator(`[data-testid="thread-group"][data-group="${label}"]`);
    await expect(group('Pinned')).toContainText('Keep this one on top');
    await expect(group('Today')).toContainText('Talked about today');
    await expect(group('Older')).toContainText('Spring planting notes');
    const labels = await page.getByTestId('thread-group').evaluateAll((els) => els.map((e) => e.getAttribute('data-group')));
    expect(labels.indexOf('Pinned')).toBe(0);
    expect(labels.indexOf('Today')).toBeLessThan(labels.indexOf('Older'));
  } finally {
    for (const id of [old, today, pinned]) await page.request.delete(`/api/threads/${id}`);
  }
});

test('the thread list loads older conversations as it scrolls (50 at a time)', async ({ page, request }) => {
  const stamp = Date.now();
  for (let i = 0; i < 130; i++) {
    const res = await request.post('/api/threads', { data: { title: `Scroll ${stamp} #${String(i).padStart(3, '0')}` } });
    expect(res.status()).toBe(201);
  }
  const chat = new ChatPage(page);
  await chat.open();
  await expect(chat.threads.first()).toBeVisible();
  const first = await chat.threads.count();
  expect(first).toBe(50);
  // The oldest of them is past the first pages; scrolling to the end of the list brings it.
  const oldest = page.getByTestId('thread-list').getByText(`Scroll ${stamp} #000`);
  await expect(oldest).toHaveCount(0);
  for (let i = 0; i < 10 && (await oldest.count()) === 0; i++) {
    const before = await chat.threads.count();
    await page.getByTestId('more-threads').scrollIntoViewIfNeeded();
    await expect.poll(() => chat.threads.count()).toBeGreaterThan(before);
  }
  await expect(oldest).toBeVisible();
  expect(await chat.threads.count()).toBeGreaterThanOrEqual(130);
});

test('a thread is dragged into a folder, moved out from its ⋯ menu, dropped on the archive; the list shows a folder, all, or the archive', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.newChat();
  const stamp = Date.now();
  await chat.ask(`Folder me ${stamp}`);
  await chat.waitForAnswer();
  const id = chat.threadId();
  const row = chat.thread(id);
  const all = page.getByTestId('view-all');
  const archive = page.getByTestId('view-archive');
  let folderId = '';
  try {
    await page.getByTestId('new-folder').click();
    await page.getByTestId('folder-name-input').fill(`Trips ${stamp}`);
    await page.getByTestId('folder-name-input').press('Enter');
    const folder = page.getByTestId('view-folder').filter({ hasText: `Trips ${stamp}` });
    await expect(folder).toHaveText(`Trips ${stamp} (0)`);
    folderId = (await folder.getAttribute('data-folder-id'))!;

    // A hovered row keeps its title readable beside its ⋯ (its actions live in the menu).
    await row.hover();
    expect((await row.getByTestId('thread-link').boundingBox())!.width).toBeGreaterThan(150);
    // Dragged onto the folder: filed there.
    await row.getByTestId('thread-link').dragTo(folder);
    await expect(folder).toHaveText(`Trips ${stamp} (1)`);
    await folder.click();
    await expect(folder).toHaveAttribute('aria-pressed', 'true');
    await expect(chat.threads).toHaveCount(1);
    await expect(row).toBeVisible();
    // Out of it from the row's menu (no mouse needed).
    await (await chat.threadAction(id, 'move-thread')).selectOption('');
    await expect(row).toHaveCount(0);
    await expect(folder).toHaveText(`Trips ${stamp} (0)`);
    await all.click();
    await expect(row).toBeVisible();
    // Back in by menu, then dropped on All conversations: out again.
    await (await chat.threadAction(id, 'move-thread')).selectOption(folderId);
    await expect(folder).toHaveText(`Trips ${stamp} (1)`);
    await row.getByTestId('thread-link').dragTo(all);
    await expect(folder).toHaveText(`Trips ${stamp} (0)`);

    // Dropped on the Archive: out of the list, in the archive's own view.
    await row.getByTestId('thread-link').dragTo(archive);
    await expect(row).toHaveCount(0);
    await archive.click();
    await expect(row).toBeVisible();
    const unarchive = await chat.threadAction(id, 'archive-thread');
    await expect(unarchive).toHaveText('Unarchive');
    await unarchive.click();
    await expect(row).toHaveCount(0);
    await all.click();
    await expect(row).toBeVisible();

    // The folder renamed, then deleted: its conversations stay, in no folder.
    await folder.click();
    await page.getByTestId('rename-folder').click();
    await page.getByTestId('folder-name-input').fill(`Norway ${stamp}`);
    await page.getByTestId('folder-name-input').press('Enter');
    const renamed = page.getByTestId('view-folder').filter({ hasText: `Norway ${stamp}` });
    await expect(renamed).toHaveText(`Norway ${stamp} (0)`);
    await page.getByTestId('delete-folder').click();
    await page.getByTestId('confirm-delete-folder').click();
    await expect(renamed).toHaveCount(0);
    await expect(all).toHaveAttribute('aria-pressed', 'true');
    await expect(row).toBeVisible();
    folderId = '';
  } finally {
    await page.request.delete(`/api/threads/${id}`);
    if (folderId) await page.request.delete(`/api/folders/${folderId}`);
  }
});

test('threads selected together are moved to a folder, archived and brought back, and deleted, each once', async ({ page, request }) => {
  const stamp = Date.now();
  const make = async (title: string) => ((await (await request.post('/api/threads', { data: { title } })).json()) as { id: string }).id;
  const ids = [await make(`Bulk A ${stamp}`), await make(`Bulk B ${stamp}`), await make(`Bulk C ${stamp}`)];
  const folderId = ((await (await request.post('/api/folders', { data: { name: `Bulk ${stamp}` } })).json()) as { id: string }).id;
  const chat = new ChatPage(page);
  try {
    await chat.open();
    const row = (i: number) => chat.thread(ids[i]);
    await page.getByTestId('select-threads').click();
    const bar = page.getByTestId('bulk-bar');
    await expect(bar.getByTestId('bulk-count')).toHaveText('0 selected');
    await expect(bar.getByTestId('bulk-archive')).toBeDisabled();
    // While selecting, a row is a checkbox: clicking it selects, it does not open the thread.
    await row(0).click();
    await row(1).getByTestId('select-thread').check();
    await expect(bar.getByTestId('bulk-count')).toHaveText('2 selected');
    await expect(page).toHaveURL(/\/$/);

    await bar.getByTestId('bulk-move').selectOption(folderId);
    await expect(bar).toHaveCount(0);
    const folder = page.locator(`[data-testid="view-folder"][data-folder-id="${folderId}"]`);
    await expect(folder).toHaveText(`Bulk ${stamp} (2)`);

    // In the folder: both archived at once.
    await folder.click();
    await expect(chat.threads).toHaveCount(2);
    await page.getByTestId('select-threads').click();
    await page.getByTestId('bulk-all').click();
    await expect(page.getByTestId('bulk-count')).toHaveText('2 selected');
    await page.getByTestId('bulk-archive').click();
    await expect(chat.threads).toHaveCount(0);

    // In the archive: brought back.
    await page.getByTestId('view-archive').click();
    await expect(row(0)).toBeVisible();
    await page.getByTestId('select-threads').click();
    await row(0).getByTestId('select-thread').check();
    await row(1).getByTestId('select-thread').check();
    await page.getByTestId('bulk-archive').click();
    await expect(row(0)).toHaveCount(0);

    // Deleted together, asked once more; the third, not selected, stays.
    await page.getByTestId('view-all').click();
    await page.getByTestId('select-threads').click();
    await row(0).getByTestId('select-thread').check();
    await row(1).getByTestId('select-thread').check();
    await page.getByTestId('bulk-delete').click();
    await expect(page.getByTestId('bulk-bar')).toContainText('Delete 2 threads? This cannot be undone.');
    await page.getByTestId('bulk-confirm-delete').click();
    await expect(row(0)).toHaveCount(0);
    await expect(row(1)).toHaveCount(0);
    await expect(row(2)).toBeVisible();
    expect((await request.get(`/api/threads/${ids[0]}`)).status()).toBe(404);
  } finally {
    for (const id of ids) await request.delete(`/api/threads/${id}`);
    await request.delete(`/api/folders/${folderId}`);
  }
});
