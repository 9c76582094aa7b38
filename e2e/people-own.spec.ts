import { spawnSync } from 'node:child_process';
import { expect, test, type Browser } from '@playwright/test';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { startHearth, type HearthServer } from './contract/hearth-server';
import { ChatPage } from './pages/chat';

/**
 * What the owner decides for each person and what is each person's own, in the browser (issue
 * 48, items 5 and 7): the owner sets a member's turns a day on the People page; the member
 * changes their own name and memory in Settings (the household's settings greyed), sees their
 * usage, and is told plainly when the limit stops a turn; the owner sees everyone's usage.
 */

let home: HearthServer;

const users = (dataDir: string, args: string[], password: string) => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/users.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    input: `${password}\n`,
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
};

test.beforeAll(async () => {
  const dataDir = makeTempDir('hearth-people-own');
  users(dataDir, ['add', 'olive', '--role', 'owner', '--password-stdin'], 'olive password');
  users(dataDir, ['add', 'ann', '--role', 'member', '--password-stdin'], 'ann password');
  home = await startHearth({ LLAMA_URL: 'http://127.0.0.1:18080/v1', MODEL_SLOTS: '1' }, { dataDir });
});
test.afterAll(async () => {
  await home?.stop();
});

async function loggedIn(browser: Browser, name: string) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${home.url}/login`);
  await page.getByTestId('login-username').fill(name);
  await page.getByLabel('Password').fill(`${name} password`);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('composer')).toBeVisible();
  return page;
}

test('the owner limits a member’s turns; the member sets their own name and memory, sees their usage and the limit’s message', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const olive = await loggedIn(browser, 'olive');
  await olive.goto(`${home.url}/admin`);
  const annRow = olive.getByTestId('person').filter({ hasText: 'ann' });
  await annRow.getByTestId('person-turnsPerDay').fill('1');
  await annRow.getByTestId('person-turnsPerDay').press('Enter');
  await olive.reload();
  await expect(olive.getByTestId('person').filter({ hasText: 'ann' }).getByTestId('person-turnsPerDay')).toHaveValue('1');

  const ann = await loggedIn(browser, 'ann');
  await ann.goto(`${home.url}/settings`);
  // Her own settings are hers to change; the household's are shown greyed.
  await expect(ann.locator('#setting-assistantName-input')).toBeDisabled();
  await expect(ann.locator('#setting-modelServers-0-url-input')).toBeDisabled();
  const name = ann.locator('#setting-userName-input');
  await expect(name).toBeEnabled();
  await name.fill('Ann');
  await name.press('Enter');
  await ann.locator('#setting-memory-input').uncheck();
  await expect(ann.getByTestId('usage-empty')).toBeVisible();
  await expect(ann.getByTestId('your-limits')).toHaveText("This Hearth's owner set your limits: 1 turns a day.");
  await ann.reload();
  await expect(ann.locator('#setting-userName-input')).toHaveValue('Ann');
  await expect(ann.locator('#setting-memory-input')).not.toBeChecked();
  // The owner's own name is not Ann's.
  await olive.goto(`${home.url}/settings`);
  await expect(olive.locator('#setting-userName-input')).toHaveValue('');
  await expect(olive.getByTestId('member-tools')).toBeVisible();

  // One turn, then the limit.
  await ann.goto(home.url);
  const chat = new ChatPage(ann);
  await chat.ask('What is the capital of Norway?');
  await chat.waitForAnswer();
  await ann.goto(home.url);
  await chat.ask('And of Sweden?');
  await expect(ann.getByText("You have used your 1 turn for today, the limit this Hearth's owner set for you.")).toBeVisible();

  await ann.goto(`${home.url}/settings`);
  await expect(ann.getByTestId('usage-row')).toHaveCount(1);
  await expect(ann.getByTestId('usage-row')).toContainText('1');
  // The owner sees everyone's, and can take it as CSV.
  await olive.goto(`${home.url}/admin`);
  await expect(olive.getByTestId('usage-row').filter({ hasText: 'ann' })).toHaveCount(1);
  const download = olive.waitForEvent('download');
  await olive.getByTestId('usage-csv').click();
  const csv = await download;
  expect(csv.suggestedFilename()).toMatch(/^hearth-usage-everyone-from-\d{4}-\d{2}-\d{2}\.csv$/);
});
