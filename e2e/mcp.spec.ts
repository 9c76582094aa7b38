import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startHearth, type HearthServer } from './contract/hearth-server';
import { ChatPage } from './pages/chat';

/**
 * A tool server added in Settings (the repository's notes fixture, over stdio, written with the
 * MCP SDK): its tools listed, offered to the model, and a call that changes something asks
 * first: the card waits across a reload, and Allow once lets it run. A server that runs a
 * program is added in the page only with a password set (issue 45): this spec starts such a
 * Hearth of its own, and the shared one, without a password, refuses in words.
 */

const NOTES = path.resolve('e2e/mcp/notes-server.mjs');
const PASSWORD = 'a long enough password';
const PORT = 13007;
let app: HearthServer;

test.beforeAll(async () => {
  app = await startHearth({ LLAMA_URL: 'http://127.0.0.1:18080/v1', HEARTH_PASSWORD: PASSWORD, MODEL_SLOTS: '1' }, { port: PORT });
});

test.afterAll(async () => {
  await app?.stop();
});

test('without a password, a server that runs a program is refused in the page, which says to use mcp.json', async ({ page }) => {
  await page.goto('/settings');
  const servers = page.getByTestId('tool-servers');
  await servers.getByTestId('tool-server-name').fill('notes');
  await servers.getByTestId('tool-server-entry').fill(JSON.stringify({ command: process.execPath, args: [NOTES] }));
  await servers.getByRole('button', { name: 'Add server' }).click();
  await expect(servers.getByTestId('tool-servers-error')).toContainText('is added or changed only in');
  await expect(servers.getByTestId('tool-servers-error')).toContainText('mcp.json');
  await expect(servers.locator('[data-testid="tool-server"][data-name="notes"]')).toHaveCount(0);
});

test.describe('with a password', () => {
  test.use({ baseURL: `http://127.0.0.1:${PORT}` });
  test.beforeEach(async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByTestId('composer')).toBeVisible();
  });

  test('add a tool server in Settings, see its tools, and allow its call from the card', async ({ page }) => {
    await page.goto('/settings');
    const servers = page.getByTestId('tool-servers');
    await servers.getByTestId('tool-server-name').fill('notes');
    await servers.getByTestId('tool-server-entry').fill(JSON.stringify({ command: process.execPath, args: [NOTES] }));
    await servers.getByRole('button', { name: 'Add server' }).click();
    const notes = servers.locator('[data-testid="tool-server"][data-name="notes"]');
    await expect(notes).toHaveAttribute('data-state', 'ready', { timeout: 20_000 });
    await expect(notes.locator('[data-testid="tool-server-tool"][data-tool="notes__add_note"]')).toBeVisible();
    await expect(notes.locator('[data-testid="tool-server-tool"][data-tool="notes__broken_schema"]')).toContainText('left out');

    const chat = new ChatPage(page);
    await chat.open();
    await chat.ask('Add a note: buy milk');
    const card = chat.lastAnswer().getByTestId('approval-card');
    await expect(card).toHaveAttribute('data-status', 'pending');
    // The tool in words, not its raw name (issue 46).
    await expect(card).toContainText('notes wants to run “add note”');
    await expect(card).not.toContainText('notes__add_note');
    await expect(card).toContainText('buy milk');
    // The turn waits: after a reload the card is there again, still waiting.
    await page.reload();
    const again = chat.lastAnswer().getByTestId('approval-card');
    await expect(again).toHaveAttribute('data-status', 'pending');
    await again.getByTestId('approval-allow').click();
    await chat.waitForAnswer();
    await expect(chat.lastAnswer().getByTestId('answer')).toContainText('Noted: buy milk');
    await expect(chat.lastAnswer().locator('[data-testid="tool-call"][data-tool="notes__add_note"]')).toHaveAttribute('data-ok', 'true');
    await page.request.delete(`/api/threads/${chat.threadId()}`);
    expect((await page.request.delete('/api/tool-servers/notes')).status()).toBe(204);
  });
});
