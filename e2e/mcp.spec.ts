import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

/**
 * A tool server added in Settings (the repository's notes fixture, over stdio, written with the
 * MCP SDK): its tools listed, offered to the model, and a call that changes something asks
 * first: the card waits across a reload, and Allow once lets it run.
 */

const NOTES = path.resolve('e2e/mcp/notes-server.mjs');

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
