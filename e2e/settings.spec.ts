import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat';

/** Everything the Settings page can change, put back to the environment's values after each test. */
test.afterEach(async ({ request }) => {
  const keys = [
    'modelServers',
    'modelSlots',
    'assistantName',
    'defaultInstructions',
    'userName',
    'timezone',
    'location',
    'searxngUrl',
    'disabledTools',
    'turnFuel',
    'maxRounds',
    'turnModelCalls',
    'judgeEveryAnswer',
  ];
  const res = await request.patch('/api/settings', { data: Object.fromEntries(keys.map((k) => [k, null])) });
  expect(res.status()).toBe(200);
});

test('settings are saved in Hearth, kept after a reload, and the next reply uses them without a restart', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('open-settings').click();
  await expect(page).toHaveURL(/\/settings$/);
  // The model server is checked live.
  await expect(page.getByTestId('server-check')).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('server-check')).toContainText(/model \S+ · context [\d,]+ tokens · \d+ slot/);
  // What the server offers is suggested in its model field (a router offers several).
  const modelField = page.getByTestId('server-model').first();
  const choices = page.locator(`datalist#${await modelField.getAttribute('list')} option`);
  await expect(choices).toHaveCount(1);
  expect(await choices.first().getAttribute('value')).toBe('tiny-toy');

  // Each box is saved when focus leaves it: there is no Save button to forget.
  await expect(page.getByTestId('save-settings')).toHaveCount(0);
  await page.getByLabel('Name', { exact: true }).fill('Ember');
  await expect(page.getByTestId('settings-bar')).toContainText('1 change not saved');
  await page.getByLabel('Your name').fill('Camille');
  await page.getByLabel('Your name').press('Tab');
  await expect(page.getByTestId('settings-status')).toHaveText('Saved. Changes apply from the next reply.');
  await expect(page.getByTestId('settings-bar')).not.toContainText('not saved');
  await page.reload();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Ember');
  await expect(page.getByTestId('reset-assistantName')).toBeVisible();

  await page.getByTestId('back-to-chat').click();
  const chat = new ChatPage(page);
  await chat.ask('What is your name?');
  await chat.waitForAnswer();
  await expect(chat.lastAnswer().getByTestId('answer').locator('.md')).toHaveText('My name is Ember.');
  // The page calls the assistant by its name too: the message box, what a screen reader hears, the export.
  await expect(chat.composer).toHaveAttribute('placeholder', 'Message Ember');
  await expect(page.getByTestId('live-announcer')).toContainText('Ember replied: My name is Ember.');
  const markdown = await (await page.request.get(`/api/threads/${chat.threadId()}/export?format=md`)).text();
  expect(markdown).toContain('## Ember (');
  await chat.ask('What is my name?');
  await chat.waitForAnswer();
  await expect(chat.lastAnswer().getByTestId('answer').locator('.md')).toHaveText('Your name is Camille.');

  // "Default" puts the environment's name back.
  await page.goto('/settings');
  await page.getByTestId('reset-assistantName').click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Hearth');
  await page.goto('/');
  await chat.ask('What is your name?');
  await chat.waitForAnswer();
  await expect(chat.lastAnswer().getByTestId('answer').locator('.md')).toHaveText('My name is Hearth.');
});

test('live checks: SearXNG answers a test search; a server that is not there says so; a bad value is refused with the reason', async ({
  page,
}) => {
  await page.goto('/settings');
  await page.getByTestId('test-searxng').click();
  await expect(page.getByTestId('searxng-check')).toContainText(/✓ SearXNG answered a test search \(\d+ results\)/);

  await page.getByTestId('add-server').click();
  await page.getByTestId('server-url').nth(1).fill('http://127.0.0.1:9/v1');
  await page.getByTestId('check-server').nth(1).click();
  await expect(page.getByTestId('server-check').nth(1)).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('server-check').nth(1)).toContainText('Cannot be used');
  // What was tried and what to do, not fetch's "fetch failed".
  await expect(page.getByTestId('server-check').nth(1)).toContainText('Tried GET http://127.0.0.1:9/v1/models');
  await expect(page.getByTestId('server-check').nth(1)).not.toContainText('fetch failed');
  await page.getByLabel('Remove server 2').click();

  await page.getByLabel('Timezone', { exact: true }).fill('Mars/Olympus');
  await page.getByLabel('Timezone', { exact: true }).press('Enter');
  await expect(page.getByTestId('settings-status')).toContainText('IANA timezone');
  await page.reload();
  await expect(page.getByLabel('Timezone', { exact: true })).toHaveValue('UTC');
});

test('Checks: every answer is judged by the model unless "Ask the model about every answer" is turned off', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.ask('Tell me about otters.');
  await chat.waitForAnswer();
  const checks = chat.lastAnswer().getByTestId('decisions');
  await checks.locator('summary').click();
  await expect(checks.locator('[data-step="acceptance"]')).toContainText(
    /Accepted by: the verdict \(the model read it: it answers, \d+% sure\)/,
  );
  await page.goto('/settings');
  const every = page.locator('#setting-judgeEveryAnswer-input');
  await expect(every).toBeChecked();
  await expect(page.getByTestId('setting-judgeEveryAnswer')).toContainText('a put-off answer it has not learned to spot can reach you');
  await every.uncheck();
  await expect(page.getByTestId('settings-status')).toHaveText('Saved. Changes apply from the next reply.');
  await page.reload();
  await expect(page.locator('#setting-judgeEveryAnswer-input')).not.toBeChecked();
  await chat.open();
  await chat.ask('Describe a rainbow in one line.');
  await chat.waitForAnswer();
  const after = chat.lastAnswer().getByTestId('decisions');
  await after.locator('summary').click();
  await expect(after.locator('[data-step="acceptance"]')).toContainText(
    'Accepted by: the classifier alone (deferral 4%): “Ask the model about every answer” is off',
  );
  await expect(after.locator('[data-step="verdict"]')).toHaveCount(0);
});

test('a tool switched off in Settings is not offered: web search off, a current question is answered with a caveat', async ({ page }) => {
  await page.goto('/settings');
  await page.getByTestId('tool-web_search').uncheck();
  await expect(page.getByTestId('settings-status')).toHaveText('Saved. Changes apply from the next reply.');
  await page.goto('/');
  const chat = new ChatPage(page);
  await chat.ask('What is the price of gold today?');
  await chat.waitForAnswer();
  await expect(chat.lastAnswer().locator('[data-testid="tool-call"][data-tool="web_search"]')).toHaveCount(0);
  await expect(chat.lastAnswer().getByTestId('answer')).toContainText('Web search is off here');
});

for (const size of [
  { name: 'desktop', width: 1280, height: 720 },
  { name: 'phone', width: 390, height: 700 },
]) {
  test(`on a ${size.name} the whole form is reachable: its end is never under the status bar, and only the form scrolls`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto('/settings');
    const form = page.getByTestId('settings-form');
    // Scrolled to the end once the sections that load late (the tool servers) have their height.
    await expect
      .poll(async () => {
        await form.evaluate((el) => el.scrollTo(0, el.scrollHeight));
        const picker = await page.getByTestId('theme-picker').boundingBox();
        const bar = await page.getByTestId('settings-bar').boundingBox();
        return picker && bar ? bar.y - (picker.y + picker.height) : -1;
      })
      .toBeGreaterThanOrEqual(0);
    // The page itself does not scroll: the bar stays put and a focus move scrolls the form (the theme's
    // hidden radios once scrolled the whole page, leaving its lower half blank).
    const pageScroll = () => page.evaluate(() => [document.scrollingElement!.scrollTop, document.body.scrollTop, window.scrollY]);
    await page.getByTestId('theme-dark').focus();
    expect(await pageScroll()).toEqual([0, 0, 0]);
    expect(await page.getByTestId('settings-bar').evaluate((el) => getComputedStyle(el).backgroundColor)).not.toMatch(/rgba\(.*, 0\.\d+\)/);
    const name = page.locator('#setting-assistantName-input');
    await name.focus();
    await expect(name).toBeInViewport();
    expect(await pageScroll()).toEqual([0, 0, 0]);
  });
}

test('going back to the chats saves a box still being typed in; a refused value is named before it is left behind', async ({ page }) => {
  await page.goto('/settings');
  await page.locator('#setting-assistantName-input').fill('Ember');
  await expect(page.getByTestId('settings-bar')).toContainText('1 change not saved');
  await page.getByTestId('back-to-chat').click();
  await expect(page).toHaveURL(/\/$/);
  const saved = async () =>
    ((await (await page.request.get('/api/settings')).json()) as { settings: { assistantName: string; turnFuel: number } }).settings;
  expect((await saved()).assistantName).toBe('Ember');

  await page.goto('/settings');
  const before = (await saved()).turnFuel;
  await page.locator('#setting-turnFuel-input').fill('50');
  let asked = '';
  page.once('dialog', (d) => {
    asked = d.message();
    void d.dismiss();
  });
  await page.getByTestId('back-to-chat').click();
  await expect.poll(() => asked).toBe('1 change not saved, as the line at the bottom says. Leave anyway?');
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByTestId('settings-status')).toHaveText('Fuel: must be at least 100.');
  await expect(page.locator('#setting-turnFuel-input')).toHaveValue('50');
  page.once('dialog', (d) => void d.accept());
  await page.getByTestId('back-to-chat').click();
  await expect(page).toHaveURL(/\/$/);
  expect((await saved()).turnFuel).toBe(before);
});
