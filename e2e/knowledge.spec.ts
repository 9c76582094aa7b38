import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

/**
 * Knowledge collections (issue 32) in the browser: a collection made on the Knowledge page
 * with a manual and a zip of notes, indexed against the double's embeddings; chosen in a
 * thread's header; a question answered from it with a citation that opens the passage in the
 * viewer, its lines highlighted.
 */

const RESET = 'To restore the factory settings, hold the power button for ten seconds until the lamp blinks twice.';
const manual = [
  '# Lamp manual',
  '',
  ...Array.from({ length: 60 }, (_, i) => [
    `## Part ${i + 1}`,
    '',
    `Part ${i + 1} carries serial plate S${1000 + i}. Clean it with a dry cloth.`,
    '',
  ]).flat(),
  '## Factory settings',
  '',
  RESET,
  '',
].join('\n');
const resetLine = manual.split('\n').indexOf(RESET) + 1;

test.afterEach(async ({ request }) => {
  await request.patch('/api/settings', { data: { embeddingsUrl: null, embeddingsModel: null } });
  const { collections } = await (await request.get('/api/collections')).json();
  for (const c of collections) await request.delete(`/api/collections/${c.id}`);
});

test('a collection made on the Knowledge page, used in a thread: the answer cites a passage that opens with its lines highlighted', async ({
  page,
}) => {
  await page.request.patch('/api/settings', { data: { embeddingsUrl: 'http://127.0.0.1:18080/v1', embeddingsModel: 'bge-small' } });
  await page.goto('/');
  await page.getByTestId('open-knowledge').click();
  await expect(page).toHaveURL(/\/knowledge$/);
  await expect(page.getByTestId('knowledge-mode')).toContainText('by meaning');
  await page.getByTestId('new-collection-name').fill('Lamp');
  await page.getByTestId('create-collection').click();
  await expect(page.getByTestId('collection-name')).toHaveText('Lamp');

  await page.getByTestId('collection-upload').setInputFiles([
    { name: 'lamp.md', mimeType: 'text/markdown', buffer: Buffer.from(manual) },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('The lamp came with a two year warranty.\n') },
  ]);
  await expect(page.getByTestId('collection-file')).toHaveCount(2);
  // Indexed in the background: each file says so once it is ready.
  await expect(page.locator('[data-testid="collection-file"][data-status="ready"]')).toHaveCount(2);
  await expect(page.getByTestId('collection-progress')).toContainText('2 indexed');
  await page.getByTestId('collection-search').fill('factory settings');
  await page.getByTestId('collection-search').press('Enter');
  await expect(page.getByTestId('collection-passages').locator('li').first()).toContainText(RESET);

  // A thread chooses the collection in its header.
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Hello, this starts a thread.');
  await chat.waitForAnswer();
  await page.getByTestId('thread-knowledge').locator('summary').click();
  const box = page.locator('[data-testid="thread-collection"][data-collection="Lamp"]');
  await box.check();
  await expect(box).toBeChecked();
  await page.getByTestId('thread-knowledge').locator('summary').click();

  await chat.ask('How do I restore the factory settings?');
  await chat.waitForAnswer();
  const answer = chat.lastAnswer().getByTestId('answer');
  await expect(answer).toContainText('hold the power button for ten seconds');
  const citation = answer.getByTestId('citation');
  await expect(citation).toHaveText('[1]');
  await expect(citation).toHaveAttribute('href', new RegExp(`/knowledge/[^/]+/files/[^?]+\\?from=\\d+&to=\\d+`));
  // The cited file is the answer's source chip, opening the same passage.
  const source = chat.lastAnswer().getByTestId('sources').getByTestId('source');
  await expect(source).toHaveCount(1);
  await expect(source).toHaveAttribute('data-kind', 'document');
  await expect(source).toHaveText('lamp.md');
  await expect(source).toHaveAttribute('href', (await citation.getAttribute('href'))!);

  // The citation opens the passage in the viewer, its lines highlighted.
  const [viewer] = await Promise.all([page.context().waitForEvent('page'), citation.click()]);
  await expect(viewer.getByTestId('passage-file')).toHaveText('lamp.md');
  const lit = viewer.getByTestId('passage-line-highlighted');
  await expect(lit.filter({ hasText: RESET })).toHaveCount(1);
  await expect(lit.filter({ hasText: RESET })).toContainText(String(resetLine));
  await viewer.close();

  // Kept over a reload: the thread still uses the collection, the answer still links its passage.
  await page.reload();
  await expect(chat.lastAnswer().getByTestId('citation')).toHaveText('[1]');
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});

test('a file attached to a message is added to a collection from its viewer, and indexed there', async ({ page }) => {
  const made = await (await page.request.post('/api/collections', { data: { name: 'Kitchen' } })).json();
  const chat = new ChatPage(page);
  await chat.open();
  await page.getByTestId('file-input').setInputFiles({
    name: 'bread.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Bake the bread at 220 degrees for forty minutes.\n'),
  });
  await expect(page.getByTestId('pending-attachment')).toContainText('bread.txt');
  await chat.ask('What is in the attached file?');
  await chat.waitForAnswer();
  await page.getByTestId('message-attachment').click();
  const viewer = page.getByTestId('file-viewer');
  await viewer.getByTestId('add-to-collection').selectOption({ label: 'Kitchen' });
  await expect(viewer.getByTestId('added-to-collection')).toHaveText('Added to Kitchen');
  await expect
    .poll(async () =>
      (await (await page.request.get(`/api/collections/${made.id}`)).json()).fileList.map((f: { status: string }) => f.status),
    )
    .toEqual(['ready']);
  const found = await (await page.request.get(`/api/collections/${made.id}/search?q=bread%20degrees`)).json();
  expect(found.passages[0].text).toContain('220 degrees');
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});
