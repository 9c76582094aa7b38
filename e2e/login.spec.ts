import { expect, test } from '@playwright/test';
import { startHearth, type HearthServer } from './contract/hearth-server';

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
