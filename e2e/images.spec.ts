import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { ChatPage } from './pages/chat';

/**
 * Images from the browser: attached by the button, dropped anywhere on the thread, pasted into
 * the message box; a thumbnail before sending, removable; the sent message shows them, and a
 * click opens one full size. The e2e double runs without a vision projector, so the message
 * also says how to give the model sight.
 */

const png = (color: string, width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

/** Files handed to the page the way a drop or a paste hands them: a DataTransfer holding File objects. */
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

async function expectLoaded(thumb: ReturnType<Page['getByTestId']>) {
  await expect(thumb.locator('img')).toHaveJSProperty('complete', true);
  expect(await thumb.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
}

test('attach an image with the button: thumbnail, remove, send, see it in the message, open it full size', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const input = page.getByTestId('file-input');
  await input.setInputFiles({ name: 'first.png', mimeType: 'image/png', buffer: await png('#cc3333') });
  await expect(page.getByTestId('pending-thumbnail')).toHaveCount(1);
  await expectLoaded(page.getByTestId('pending-thumbnail'));
  // Said when the image is attached, before it is sent: this server runs no vision model.
  await expect(page.getByTestId('pending-no-vision-note')).toContainText('The model cannot see this image');
  await page.getByRole('button', { name: 'Remove first.png' }).click();
  await expect(page.getByTestId('pending-thumbnail')).toHaveCount(0);
  await expect(page.getByTestId('pending-no-vision-note')).toHaveCount(0);

  await input.setInputFiles({ name: 'chart.png', mimeType: 'image/png', buffer: await png('#3366cc', 2000, 1000) });
  await expect(page.getByTestId('pending-thumbnail')).toHaveCount(1);
  await chat.ask('What does this chart show?');
  await chat.waitForAnswer();
  const sent = page.getByTestId('message-image');
  await expect(sent).toHaveCount(1);
  await expectLoaded(sent);
  await expect(page.getByTestId('no-vision-note')).toContainText('--mmproj');

  await sent.click();
  const viewer = page.getByTestId('image-viewer');
  await expect(viewer).toBeVisible();
  const full = viewer.locator('img');
  await expect(full).toHaveJSProperty('complete', true);
  expect(await full.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([1536, 768]);
  await expect(viewer).toContainText('1536×768');
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId('message-image')).toHaveCount(1);
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});

test('drop images anywhere on the thread, or paste a screenshot into the message box', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const pane = page.getByTestId('thread-pane');
  const dropped = await dataTransfer(page, [
    { name: 'dropped-1.png', type: 'image/png', bytes: await png('#228822') },
    { name: 'dropped-2.png', type: 'image/png', bytes: await png('#882222') },
  ]);
  await pane.dispatchEvent('dragover', { dataTransfer: dropped });
  await expect(page.getByTestId('drop-overlay')).toBeVisible();
  await pane.dispatchEvent('drop', { dataTransfer: dropped });
  await expect(page.getByTestId('drop-overlay')).toHaveCount(0);
  await expect(page.getByTestId('pending-thumbnail')).toHaveCount(2);

  const clipboard = await dataTransfer(page, [{ name: 'image.png', type: 'image/png', bytes: await png('#222288') }]);
  await chat.composer.focus();
  await chat.composer.evaluate(
    (box, dt) => box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt as DataTransfer, bubbles: true, cancelable: true })),
    clipboard,
  );
  await expect(page.getByTestId('pending-thumbnail')).toHaveCount(3);
  for (const thumb of await page.getByTestId('pending-thumbnail').all()) await expectLoaded(thumb);
  await expect(page.getByTestId('pending-thumbnail').nth(2)).toHaveAttribute('title', 'image.png');

  await chat.ask('Compare these three.');
  await chat.waitForAnswer();
  await expect(page.getByTestId('message-image')).toHaveCount(3);
  await expect(page.getByTestId('message-image').nth(0)).toHaveAttribute('title', 'dropped-1.png');
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});
