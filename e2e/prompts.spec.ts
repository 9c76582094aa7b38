import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

/**
 * Saved prompts and "#collection" in the message box (issue 46, what users of other apps looked
 * for): a prompt saved in Settings is offered after "/" and takes the command's place; "#" offers
 * the knowledge collections, and the one chosen is searched in the thread from its first turn.
 */

test('a prompt saved in Settings is offered after "/" and takes its place in the box, unsent', async ({ page, request }) => {
  const stamp = Date.now();
  const name = `sum-${stamp}`;
  await page.goto('/settings');
  await page.getByTestId('new-prompt-name').fill(`/${name}`);
  await page.getByTestId('new-prompt-text').fill('Summarize in three bullet points:');
  await page.getByTestId('add-prompt').click();
  const row = page.locator(`[data-testid="saved-prompt"][data-name="${name}"]`);
  await expect(row).toBeVisible();
  // Edited in place, saved as focus leaves it.
  await row.getByTestId('prompt-text').fill('Summarize in two bullet points:');
  await row.getByTestId('prompt-name').focus();
  await expect
    .poll(
      async () =>
        ((await (await request.get('/api/prompts')).json()) as { prompts: { name: string; text: string }[] }).prompts.find(
          (p) => p.name === name,
        )?.text,
    )
    .toBe('Summarize in two bullet points:');
  // A name already taken is said, and the box keeps what was typed.
  await page.getByTestId('new-prompt-name').fill(name);
  await page.getByTestId('new-prompt-text').fill('Another');
  await page.getByTestId('add-prompt').click();
  await expect(page.getByTestId('prompts-error')).toContainText(`there is a prompt /${name} already`);

  const chat = new ChatPage(page);
  await chat.open();
  await chat.composer.fill('/sum');
  const suggestions = page.getByTestId('suggestions');
  await expect(suggestions.getByTestId('suggestion').filter({ hasText: `/${name}` })).toBeVisible();
  // Escape closes the list; typing on opens it again.
  await chat.composer.press('Escape');
  await expect(suggestions).toHaveCount(0);
  await chat.composer.fill(`/${name}`);
  await expect(suggestions.getByTestId('suggestion')).toHaveCount(1);
  await expect(suggestions.getByTestId('suggestion').first()).toHaveAttribute('aria-selected', 'true');
  await chat.composer.press('Enter');
  await expect(chat.composer).toHaveValue('Summarize in two bullet points:');
  await expect(suggestions).toHaveCount(0);
  await expect(page).toHaveURL(/\/$/);

  const id = ((await (await request.get('/api/prompts')).json()) as { prompts: { id: string; name: string }[] }).prompts.find(
    (p) => p.name === name,
  )!.id;
  await request.delete(`/api/prompts/${id}`);
});

test('"#" offers the knowledge collections; the one chosen leaves the text and is searched from the new thread’s first turn', async ({
  page,
  request,
}) => {
  const stamp = Date.now();
  const collection = ((await (await request.post('/api/collections', { data: { name: `Lamp${stamp}` } })).json()) as { id: string }).id;
  const chat = new ChatPage(page);
  try {
    await chat.open();
    await chat.composer.fill(`How do I reset it? #lamp${stamp}`.slice(0, -3));
    const suggestion = page.getByTestId('suggestion').filter({ hasText: `#Lamp${stamp}` });
    await expect(suggestion).toBeVisible();
    await suggestion.click();
    await expect(chat.composer).toHaveValue('How do I reset it?');
    await expect(chat.composer).toBeFocused();
    await expect(page.getByTestId('pending-collections')).toHaveText(`Searches #Lamp${stamp}×`);
    await chat.composer.press('Enter');
    await chat.waitForAnswer();
    await expect(page.getByTestId('pending-collections')).toHaveCount(0);
    const thread = (await (await request.get(`/api/threads/${chat.threadId()}`)).json()) as { collectionIds: string[] };
    expect(thread.collectionIds).toEqual([collection]);
    await page.getByTestId('thread-knowledge').locator('summary').click();
    await expect(page.locator(`[data-testid="thread-collection"][data-collection="Lamp${stamp}"]`)).toBeChecked();
    await page.request.delete(`/api/threads/${chat.threadId()}`);
  } finally {
    await request.delete(`/api/collections/${collection}`);
  }
});
