import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

test('the whole library downloads as one file, and importing it back changes nothing; a foreign file is refused with the reason', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Tell me about the library of Alexandria');
  await chat.waitForAnswer();
  const panel = page.getByTestId('library-panel');
  await panel.locator('summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByTestId('export-library').click()]);
  expect(download.suggestedFilename()).toMatch(/^hearth-library-\d{4}-\d{2}-\d{2}\.jsonl$/);
  const file = fs.readFileSync((await download.path())!, 'utf8');
  const lines = file
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; content?: string });
  expect(lines[0].type).toBe('hearth-library');
  expect(lines.some((l) => l.type === 'message' && l.content === 'Tell me about the library of Alexandria')).toBe(true);
  expect(lines.at(-1)!.type).toBe('end');

  const threadsBefore = await chat.threads.count();
  await panel
    .getByTestId('import-file')
    .setInputFiles({ name: 'library.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(file) });
  await expect(panel.getByTestId('import-result')).toContainText('Imported 0 threads, 0 messages');
  await expect(panel.getByTestId('import-result')).toContainText('already here kept as they were');
  await expect(chat.threads).toHaveCount(threadsBefore);

  await panel
    .getByTestId('import-file')
    .setInputFiles({ name: 'other-app.json', mimeType: 'application/json', buffer: Buffer.from('[{"title":"chat","messages":[]}]') });
  await expect(panel.getByTestId('import-result')).toContainText('none of the files Hearth imports');
});

test("ChatGPT's conversations.json imports from the Import button: the thread is in the list with its title, and opens", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  const stamp = Date.now();
  const node = (id: string, role: string, text: string, parent: string | null, children: string[]) => ({
    id,
    message: {
      id,
      author: { role },
      create_time: stamp / 1000 - 30 + children.length,
      content: { content_type: 'text', parts: [text] },
      metadata: {},
      recipient: 'all',
    },
    parent,
    children,
  });
  const file = JSON.stringify([
    {
      title: `From ChatGPT ${stamp}`,
      // Recent, so it is in the first page of the list (the browser tests make many threads).
      create_time: stamp / 1000 - 60,
      update_time: stamp / 1000,
      conversation_id: `conv-${stamp}`,
      current_node: 'a',
      mapping: {
        q: node('q', 'user', 'How long do I boil an egg?', null, ['a']),
        a: node('a', 'assistant', 'Nine minutes for a hard egg.', 'q', []),
      },
    },
  ]);
  const panel = page.getByTestId('library-panel');
  await panel.locator('summary').click();
  await panel
    .getByTestId('import-file')
    .setInputFiles({ name: 'conversations.json', mimeType: 'application/json', buffer: Buffer.from(file) });
  await expect(panel.getByTestId('import-result')).toContainText('Imported from ChatGPT 1 thread, 2 messages');
  const row = page.getByTestId('thread-link').filter({ hasText: `From ChatGPT ${stamp}` });
  await expect(row).toHaveCount(1);
  await row.click();
  await expect(page.getByTestId('user-message')).toHaveText('How long do I boil an egg?');
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('Nine minutes for a hard egg.');
  await page.request.delete(`/api/threads/${chat.threadId()}`);
});

test('a large export shows its progress as it is sent, then what was imported', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const stamp = Date.now();
  // 300 conversations, about 1.5 MB, sent at 256 KB/s: the bar is there for seconds.
  const conversations = Array.from({ length: 300 }, (_, i) => ({
    title: `Bulk ${stamp} #${i}`,
    create_time: stamp / 1000 - 3600,
    update_time: stamp / 1000 - 3600 + i,
    conversation_id: `bulk-${stamp}-${i}`,
    current_node: 'a',
    mapping: {
      q: {
        id: 'q',
        parent: null,
        children: ['a'],
        message: { id: 'q', author: { role: 'user' }, content: { content_type: 'text', parts: ['x'.repeat(2500)] } },
      },
      a: {
        id: 'a',
        parent: 'q',
        children: [],
        message: { id: 'a', author: { role: 'assistant' }, content: { content_type: 'text', parts: ['y'.repeat(2500)] } },
      },
    },
  }));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
  const panel = page.getByTestId('library-panel');
  await panel.locator('summary').click();
  await panel
    .getByTestId('import-file')
    .setInputFiles({ name: 'conversations.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(conversations)) });
  const progress = panel.getByTestId('import-progress');
  await expect(progress).toContainText(/Sending \d+\.\d MB of 1\.\d MB…/);
  await expect.poll(async () => Number(await progress.locator('progress').getAttribute('value'))).toBeGreaterThan(0);
  await expect(panel.getByTestId('import-result')).toContainText('Imported from ChatGPT 300 threads, 600 messages', { timeout: 30_000 });
  await expect(progress).toHaveCount(0);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  // Left as the other tests found the list: every imported thread deleted, over every page.
  const mine: string[] = [];
  for (let cursor: string | null = ''; cursor !== null;) {
    const page_ = (await (await page.request.get(`/api/threads?limit=200${cursor ? `&cursor=${cursor}` : ''}`)).json()) as {
      threads: { id: string; title: string }[];
      nextCursor: string | null;
    };
    mine.push(...page_.threads.filter((x) => x.title.startsWith(`Bulk ${stamp}`)).map((x) => x.id));
    cursor = page_.nextCursor;
  }
  expect(mine).toHaveLength(300);
  for (const id of mine) await page.request.delete(`/api/threads/${id}`);
});

test('settings a library file carries that decide where conversations go wait in Settings until applied one by one', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  const file = [
    { type: 'hearth-library', version: 1, exportedAt: 1 },
    { type: 'setting', key: 'defaultInstructions', value: 'Answer like a pirate.', updatedAt: 1 },
    { type: 'setting', key: 'searxngUrl', value: 'http://search.example:8888', updatedAt: 1 },
    { type: 'end', records: 2 },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n');
  const panel = page.getByTestId('library-panel');
  await panel.locator('summary').click();
  await panel
    .getByTestId('import-file')
    .setInputFiles({ name: 'from-a-friend.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(file) });
  await expect(panel.getByTestId('import-result')).toContainText(
    '2 settings (Instructions for every conversation, SearXNG address (web search)) wait for you in Settings',
  );
  try {
    await page.goto('/settings');
    const proposals = page.getByTestId('imported-proposals');
    await expect(proposals.getByTestId('proposal')).toHaveCount(2);
    const instructions = proposals.locator('[data-testid="proposal"][data-key="defaultInstructions"]');
    await expect(instructions).toContainText('Answer like a pirate.');
    await expect(proposals.locator('[data-key="searxngUrl"]')).toContainText('http://search.example:8888');
    // Nothing is in force yet.
    await expect(page.locator('#setting-defaultInstructions-input')).toHaveValue('');
    await instructions.getByRole('button', { name: 'Apply Instructions for every conversation' }).click();
    await expect(page.locator('#setting-defaultInstructions-input')).toHaveValue('Answer like a pirate.');
    await proposals.locator('[data-key="searxngUrl"]').getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByTestId('imported-proposals')).toHaveCount(0);
    const settings = (await (await page.request.get('/api/settings')).json()) as { settings: { searxngUrl: string } };
    expect(settings.settings.searxngUrl).not.toBe('http://search.example:8888');
  } finally {
    const left = ((await (await page.request.get('/api/settings')).json()) as { proposals: { key: string }[] }).proposals;
    if (left.length) await page.request.post('/api/settings/proposals', { data: { dismiss: left.map((p) => p.key) } });
    expect((await page.request.patch('/api/settings', { data: { defaultInstructions: null } })).status()).toBe(200);
  }
});
