import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { ChatPage } from './pages/chat';

/**
 * Small things a newcomer meets: folders and collections are named, renamed and deleted in the
 * page (never a browser prompt), files are dropped on the Knowledge page, counts read as
 * English, a file beside an image stays a chip, and the search dialog's focus ring stays in it.
 */

/** Files handed to the page the way a drop hands them: a DataTransfer holding File objects. */
async function dataTransfer(page: Page, files: { name: string; type: string; bytes: Buffer }[]) {
  return page.evaluateHandle(
    (list) => {
      const dt = new DataTransfer();
      for (const f of list) dt.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
      return dt;
    },
    files.map((f) => ({ name: f.name, type: f.type, base64: f.bytes.toString('base64') })),
  );
}

/** A browser prompt, confirm or alert fails the test: each of these is asked in the page. */
function refuseNativeDialogs(page: Page) {
  const seen: string[] = [];
  page.on('dialog', (d) => {
    seen.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  return seen;
}

test('a folder is made, renamed and deleted in the sidebar itself, with no browser prompt', async ({ page }) => {
  const dialogs = refuseNativeDialogs(page);
  const stamp = Date.now();
  const chat = new ChatPage(page);
  await chat.open();
  await page.getByTestId('new-folder').click();
  const name = page.getByRole('textbox', { name: 'Name of the new folder' });
  await expect(name).toBeFocused();
  // Escape leaves it be.
  await name.fill('Never made');
  await name.press('Escape');
  await expect(name).toHaveCount(0);
  await expect(page.getByTestId('view-folder').filter({ hasText: 'Never made' })).toHaveCount(0);

  await page.getByTestId('new-folder').click();
  await name.fill(`Recipes ${stamp}`);
  await name.press('Enter');
  const folder = page.getByTestId('view-folder').filter({ hasText: `Recipes ${stamp}` });
  await expect(folder).toHaveText(`Recipes ${stamp} (0)`);
  const folderId = (await folder.getAttribute('data-folder-id'))!;
  try {
    await folder.click();
    await page.getByTestId('rename-folder').click();
    const rename = page.getByRole('textbox', { name: 'New name of the folder' });
    await expect(rename).toHaveValue(`Recipes ${stamp}`);
    await rename.fill(`Baking ${stamp}`);
    await rename.press('Enter');
    const renamed = page.getByTestId('view-folder').filter({ hasText: `Baking ${stamp}` });
    await expect(renamed).toHaveText(`Baking ${stamp} (0)`);

    await page.getByTestId('delete-folder').click();
    await expect(page.getByTestId('folder-delete-question')).toContainText(`Delete the folder “Baking ${stamp}”?`);
    await page.getByRole('button', { name: 'Keep' }).click();
    await expect(renamed).toHaveCount(1);
    await page.getByTestId('delete-folder').click();
    await page.getByTestId('confirm-delete-folder').click();
    await expect(renamed).toHaveCount(0);
    await expect(page.getByTestId('view-all')).toHaveAttribute('aria-pressed', 'true');
  } finally {
    await page.request.delete(`/api/folders/${folderId}`);
  }
  expect(dialogs).toEqual([]);
});

test('on the Knowledge page files are dropped on the collection, counts read as English, and deleting asks in the page', async ({
  page,
}) => {
  const dialogs = refuseNativeDialogs(page);
  const made = await page.request.post('/api/collections', { data: { name: `Drop zone ${Date.now()}` } });
  expect(made.status()).toBe(201);
  const { id } = (await made.json()) as { id: string };
  try {
    await page.goto('/knowledge');
    await page.getByTestId('collection').filter({ hasText: 'Drop zone' }).click();
    const zone = page.getByTestId('collection-drop-zone');
    await expect(zone).toContainText('Drop files here');
    const files = await dataTransfer(page, [
      { name: 'one-line.txt', type: 'text/plain', bytes: Buffer.from('The kettle holds 1.7 litres.\n') },
    ]);
    await zone.dispatchEvent('dragover', { dataTransfer: files });
    await expect(zone).toHaveAttribute('data-dragging', 'true');
    await zone.dispatchEvent('drop', { dataTransfer: files });
    await expect(zone).not.toHaveAttribute('data-dragging', 'true');
    await expect(page.locator('[data-testid="collection-file"][data-status="ready"]')).toHaveCount(1);
    await expect(page.getByTestId('file-status')).toHaveText('ready · 1 passage');
    await expect(page.getByTestId('collection-progress')).toContainText('1 file · 1 indexed · 1 passage');

    await page.getByTestId('delete-collection').click();
    await expect(page.getByTestId('collection-delete-question')).toContainText('and its 1 file?');
    await page.getByTestId('confirm-delete-collection').click();
    await expect(page.getByTestId('collection').filter({ hasText: 'Drop zone' })).toHaveCount(0);
  } finally {
    await page.request.delete(`/api/collections/${id}`);
  }
  expect(dialogs).toEqual([]);
});

test('a file sent beside an image is a one-line chip, not a tall pill', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  await page.getByTestId('file-input').setInputFiles([
    { name: 'beside.png', mimeType: 'image/png', buffer: image },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Two notes.\n') },
  ]);
  await expect(page.getByTestId('pending-thumbnail')).toHaveCount(1);
  await expect(page.getByTestId('pending-attachment')).toHaveCount(1);
  const chipBefore = (await page.getByTestId('pending-attachment').boundingBox())!;
  expect(chipBefore.height).toBeLessThan(32);
  await chat.ask('Here are both');
  await chat.waitForAnswer();
  const thumb = (await page.getByTestId('message-image').boundingBox())!;
  const chip = (await page.getByTestId('message-attachment').boundingBox())!;
  expect(thumb.height).toBeGreaterThan(60);
  expect(chip.height).toBeLessThan(32);
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});

test("the search dialog's focus ring is drawn inside the dialog", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await page.keyboard.press('Control+k');
  const input = page.getByTestId('quick-search-input');
  await expect(input).toBeFocused();
  const [ring, dialog] = await Promise.all([
    input.evaluate((el) => {
      const s = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      const out = s.outlineStyle === 'none' ? 0 : parseFloat(s.outlineWidth) + parseFloat(s.outlineOffset);
      return {
        left: r.left - out,
        top: r.top - out,
        right: r.right + out,
        visible: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0,
      };
    }),
    page.getByTestId('quick-search').boundingBox(),
  ]);
  expect(ring.visible).toBe(true);
  expect(ring.left).toBeGreaterThanOrEqual(dialog!.x);
  expect(ring.top).toBeGreaterThanOrEqual(dialog!.y);
  expect(ring.right).toBeLessThanOrEqual(dialog!.x + dialog!.width);
});
