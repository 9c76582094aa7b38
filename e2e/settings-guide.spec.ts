import { expect, test } from '@playwright/test';

/** Settings for a newcomer: a way to each section, and a warning where a setting cannot work as set. */

// Settings save as they are made: what a test changed is put back to the environment's value.
test.afterEach(async ({ request }) => {
  const res = await request.patch('/api/settings', { data: { checksModel: null, searxngUrl: null, disabledTools: null } });
  expect(res.status()).toBe(200);
});

test('Settings lists its sections at the top, and a link brings a section into view', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/settings');
  const contents = page.getByRole('navigation', { name: 'Settings sections' });
  const budget = page.getByRole('heading', { name: 'Turn budget' });
  await expect(budget).toBeAttached();
  const titles = await page.locator('section h2').allTextContents();
  expect(titles.length).toBeGreaterThan(5);
  // Every section is listed, in the page's order.
  await expect(contents.getByRole('link')).toHaveText(titles);
  await expect(budget).not.toBeInViewport();
  await contents.getByRole('link', { name: 'Turn budget' }).click();
  await expect(budget).toBeInViewport();
});

test('a checks model that no server offers is warned about as it is typed', async ({ page }) => {
  await page.goto('/settings');
  await expect(page.getByTestId('server-check')).toHaveAttribute('data-ok', 'true');
  const field = page.getByLabel('Checks model');
  const warning = page.getByTestId('checks-model-warning');
  await field.fill('no-such-model');
  await expect(warning).toContainText('No model server offers “no-such-model”');
  await expect(warning).toContainText('tiny-toy');
  await field.fill('tiny-toy');
  await expect(warning).toHaveCount(0);
  await field.fill('');
  await expect(warning).toHaveCount(0);
});

test('web search ticked with no SearXNG address is warned about', async ({ page }) => {
  await page.goto('/settings');
  const tick = page.getByTestId('tool-web_search');
  const address = page.locator('#setting-searxngUrl-input');
  const warning = page.getByTestId('web-search-warning');
  await expect(tick).toBeChecked();
  await expect(address).not.toHaveValue('');
  await expect(warning).toHaveCount(0);
  await address.fill('');
  await expect(warning).toContainText('no SearXNG address is set');
  await tick.uncheck();
  await expect(warning).toHaveCount(0);
  await tick.check();
  await expect(warning).toBeVisible();
  await address.fill('http://127.0.0.1:18888');
  await expect(warning).toHaveCount(0);
});

test('Settings speaks in words: no wire field names of llama-server on the page', async ({ page }) => {
  await page.goto('/settings');
  await expect(page.getByTestId('setting-thinking')).toBeVisible();
  const text = await page.locator('main').innerText();
  // Nor the tools' wire names: each tool is named as the page says it elsewhere (lib/shared/words/tools.ts).
  await expect(page.getByTestId('tool-web_search')).toBeAttached();
  for (const jargon of [
    'chat_template_kwargs',
    'enable_thinking',
    'reasoning_effort',
    'id_slot',
    'n_ctx',
    'json_schema',
    'web_search',
    'fetch_url',
    'query_table',
    'search_documents',
  ]) {
    expect(text, jargon).not.toContain(jargon);
  }
});
