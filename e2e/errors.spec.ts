import { expect, test } from '@playwright/test';

/**
 * What a refusal looks like on the page (issue 46): the message names the setting or field as
 * the page labels it, in words (never a validator's "turnFuel: Too small: expected number to
 * be >=100"), and the field itself is marked. Settings are saved as they are made: a box when
 * focus leaves it, or on Enter.
 */

test('Settings: a refused value is named by its label, in words, and its field is marked', async ({ page }) => {
  await page.goto('/settings');
  const fuel = page.locator('#setting-turnFuel-input');
  await fuel.fill('50');
  await fuel.press('Tab');
  const status = page.getByTestId('settings-status');
  await expect(status).toHaveText('Fuel: must be at least 100.');
  await expect(fuel).toHaveAttribute('aria-invalid', 'true');
  // Leaving the box again does not send the refused value again.
  await fuel.focus();
  await fuel.press('Tab');
  await expect(status).toHaveText('Fuel: must be at least 100.');
  await expect(page.getByTestId('setting-turnFuel')).toHaveAttribute('data-invalid', 'true');
  // Changing it again clears the mark.
  await fuel.fill('100000');
  await expect(fuel).not.toHaveAttribute('aria-invalid', 'true');

  await page.reload();
  const url = page.getByLabel('Server 1 URL');
  const saved = await url.inputValue();
  await url.fill('gpu-box:8080');
  await url.press('Enter');
  await expect(status).toHaveText('Server 1 URL: must be an http(s) URL.');
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await page.reload();
  await expect(page.getByLabel('Server 1 URL')).toHaveValue(saved);
});

test('a tool server with neither a command nor a URL: the message says what to give, and the entry is marked', async ({ page }) => {
  await page.goto('/settings');
  const servers = page.getByTestId('tool-servers');
  await servers.getByTestId('tool-server-name').fill('nothing');
  const entry = servers.getByTestId('tool-server-entry');
  await entry.fill('{"args": ["--verbose"]}');
  await servers.getByRole('button', { name: 'Add server' }).click();
  await expect(servers.getByTestId('tool-servers-error')).toHaveText(
    'The entry: give a "command" that starts the server (stdio) or the "url" it answers at (HTTP).',
  );
  await expect(entry).toHaveAttribute('aria-invalid', 'true');
  await expect(servers.locator('[data-testid="tool-server"][data-name="nothing"]')).toHaveCount(0);
});

test('a library file with a record missing its id: the import says which line and field, in words', async ({ page }) => {
  await page.goto('/');
  const panel = page.getByTestId('library-panel');
  await panel.locator('summary').click();
  const file = [
    JSON.stringify({ type: 'hearth-library', version: 1, exportedAt: Date.now() }),
    JSON.stringify({ type: 'thread', title: 'No id' }),
    JSON.stringify({ type: 'end', records: 1 }),
  ].join('\n');
  await panel
    .getByTestId('import-file')
    .setInputFiles({ name: 'broken.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(file) });
  const result = panel.getByTestId('import-result');
  await expect(result).toContainText('line 2 (thread): its "id" is missing');
  await expect(result).not.toContainText('Invalid input');
});
