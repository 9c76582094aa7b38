import { spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { startHearth, type HearthServer } from './contract/hearth-server';
import { ChatPage } from './pages/chat';

/**
 * The login as a person meets it, on an app with a password (started here, off loopback as a
 * home server runs): every page leads to the login form, a wrong password says so, the right
 * one opens the page asked for, and Log out closes it again.
 */

const PASSWORD = 'a long enough password';
let app: HearthServer;

test.beforeAll(async () => {
  app = await startHearth({ LLAMA_URL: 'http://127.0.0.1:18080/v1', HEARTH_PASSWORD: PASSWORD, MODEL_SLOTS: '1' }, { listen: '0.0.0.0' });
});

test.afterAll(async () => {
  await app?.stop();
});

test('log in, use the app, log out', async ({ page, context }) => {
  await page.goto(`${app.url}/t/00000000-0000-4000-8000-000000000000`);
  await expect(page).toHaveURL(/\/login\?next=%2Ft%2F00000000/);
  const password = page.getByLabel('Password');
  await password.fill('not the password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('login-error')).toHaveText('That is not the password.');
  await expect(password).toHaveValue('not the password');

  await password.fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(`${app.url}/t/00000000-0000-4000-8000-000000000000`);
  const cookie = (await context.cookies(app.url)).find((c) => c.name === 'hearth_session');
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe('Strict');
  expect(await page.evaluate(() => document.cookie)).not.toContain('hearth_session');

  await page.goto(app.url);
  await expect(page.getByTestId('composer')).toBeVisible();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(`${app.url}/login`);
  await page.goto(app.url);
  await expect(page).toHaveURL(`${app.url}/login`);
  expect((await page.request.get(`${app.url}/api/threads`)).status()).toBe(401);
});

test.describe('a household on one Hearth', () => {
  let home: HearthServer;
  /** `npm run users -- …` against the app's DATA_DIR, the password on stdin. */
  const users = (dataDir: string, args: string[], password?: string) => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/users.ts', ...args], {
      env: { ...process.env, DATA_DIR: dataDir },
      input: password === undefined ? '' : `${password}\n`,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    return run.stdout;
  };

  test.beforeAll(async () => {
    const dataDir = makeTempDir('hearth-household');
    users(dataDir, ['add', 'olive', '--role', 'owner', '--password-stdin'], 'olive password');
    home = await startHearth({ LLAMA_URL: 'http://127.0.0.1:18080/v1', MODEL_SLOTS: '1' }, { dataDir });
  });
  test.afterAll(async () => {
    await home?.stop();
  });

  test('the owner adds a person while Hearth runs; each logs in by name and sees only their own; a removed person is out at once', async ({
    page,
    browser,
  }) => {
    // Four people in four browsers, each step a page load: more than the default half-minute on a busy machine.
    test.setTimeout(90_000);
    // One person: the password alone, on loopback too once there is an account.
    await page.goto(home.url);
    await expect(page).toHaveURL(`${home.url}/login`);
    await expect(page.getByTestId('login-username')).toHaveCount(0);
    expect(users(home.dataDir, ['add', 'ann', '--role', 'member', '--password-stdin'], 'ann password')).toContain('Added ann (member).');
    expect(users(home.dataDir, ['list'])).toMatch(/olive\s+owner\s+active\n.*ann\s+member\s+active/s);

    // Two: the form asks who.
    await page.reload();
    const submit = async (p: typeof page, name: string, password: string) => {
      await p.goto(`${home.url}/login`);
      await p.getByTestId('login-username').fill(name);
      await p.getByLabel('Password').fill(password);
      await p.getByRole('button', { name: 'Log in' }).click();
    };
    const login = async (p: typeof page, name: string, password: string) => {
      await submit(p, name, password);
      await expect(p.getByTestId('composer')).toBeVisible();
    };
    await submit(page, 'ann', 'olive password');
    await expect(page.getByTestId('login-error')).toHaveText('That username and password do not match.');
    await login(page, 'Ann', 'ann password');
    await expect(page.getByTestId('logged-in-as')).toHaveText(' (ann)');
    const chat = new ChatPage(page);
    await chat.ask('What is the capital of Norway? ann asks');
    await chat.waitForAnswer();
    await expect(chat.threads).toHaveCount(1);

    const other = await browser.newContext();
    const olivePage = await other.newPage();
    await login(olivePage, 'olive', 'olive password');
    const oliveChat = new ChatPage(olivePage);
    await expect(olivePage.getByTestId('logged-in-as')).toHaveText(' (olive)');
    await expect(oliveChat.threads).toHaveCount(0);
    expect((await olivePage.request.get(`${home.url}/api/threads/${chat.threadId()}`)).status()).toBe(404);
    // Members do not change what everyone shares: the page says so, and the API refuses.
    expect((await page.request.patch(`${home.url}/api/settings`, { data: { assistantName: 'Mine' } })).status()).toBe(403);
    // Ann logged in on a second browser too: her sessions list both, and she ends the other.
    const phone = await browser.newContext();
    const phonePage = await phone.newPage();
    await login(phonePage, 'ann', 'ann password');
    await page.goto(`${home.url}/settings`);
    await expect(page.getByTestId('shared-settings')).toBeVisible();
    await expect(page.locator('#setting-ttsUrl-input')).toBeDisabled();
    await expect(page.getByTestId('session')).toHaveCount(2);
    await expect(page.getByTestId('session').filter({ hasText: 'this browser' })).toHaveCount(1);
    await page.getByTestId('end-session').click();
    await expect(page.getByTestId('session')).toHaveCount(1);
    expect((await phonePage.request.get(`${home.url}/api/threads`)).status()).toBe(401);
    await phone.close();
    await olivePage.goto(`${home.url}/settings`);
    await expect(olivePage.locator('#setting-ttsUrl-input')).toBeEnabled();
    await expect(olivePage.getByTestId('shared-settings')).toHaveCount(0);

    // The owner invites from the admin page; the link makes Cara's account and logs her in.
    await olivePage.getByTestId('people-link').click();
    await expect(olivePage.getByTestId('person')).toHaveCount(2);
    await olivePage.getByTestId('make-invite').click();
    const link = (await olivePage.getByTestId('invite-link').innerText()).trim();
    expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
    const invited = await browser.newContext();
    const caraPage = await invited.newPage();
    await caraPage.goto(link);
    await caraPage.getByTestId('invite-username').fill('cara');
    await caraPage.getByTestId('invite-password').fill('cara password');
    await caraPage.getByRole('button', { name: 'Join' }).click();
    await expect(caraPage.getByTestId('composer')).toBeVisible();
    await expect(caraPage.getByTestId('logged-in-as')).toHaveText(' (cara)');
    await expect(new ChatPage(caraPage).threads).toHaveCount(0);
    await caraPage.goto(link);
    await expect(caraPage.getByTestId('invite-closed')).toBeVisible();
    await invited.close();
    await olivePage.reload();
    await expect(olivePage.getByTestId('person')).toHaveCount(3);
    // The owner can take a copy of anyone's library.
    await expect(olivePage.getByTestId('person-export')).toHaveCount(3);

    // Removed while logged in: the next request is refused.
    users(home.dataDir, ['remove', 'ann']);
    expect((await page.request.get(`${home.url}/api/threads`)).status()).toBe(401);
    await page.goto(home.url);
    await expect(page).toHaveURL(`${home.url}/login`);
    await other.close();
  });
});
