import { expect, test, type Page } from '@playwright/test';
import { freePort, startHearth, type HearthServer } from './contract/hearth-server';
import { startProvider, type TestProvider } from './oidc-provider';

/**
 * Single sign-on in the browser (issue 48, item 2): a real OpenID Connect provider
 * (oidc-provider) beside a Hearth set up for it. An invitation's link joins through the
 * provider's own login page; the person comes back logged in, and later signs in with the
 * button; someone without an account comes back to the login page, told why.
 */

const PASSWORD = 'a long enough password';
let provider: TestProvider;
let app: HearthServer;

test.beforeAll(async () => {
  const port = await freePort();
  const callback = `http://127.0.0.1:${port}/api/auth/oidc/callback`;
  provider = await startProvider({ redirectUris: [callback] });
  app = await startHearth(
    {
      LLAMA_URL: 'http://127.0.0.1:18080/v1',
      HEARTH_PASSWORD: PASSWORD,
      MODEL_SLOTS: '1',
      HEARTH_OIDC_ISSUER: provider.issuer,
      HEARTH_OIDC_CLIENT_ID: provider.clientId,
      HEARTH_OIDC_CLIENT_SECRET: provider.clientSecret,
      HEARTH_OIDC_REDIRECT_URL: callback,
      HEARTH_OIDC_NAME: 'Test Provider',
    },
    { port },
  );
});

test.afterAll(async () => {
  await app?.stop();
  await provider?.close();
});

/** The provider's login page, as its person fills it in. */
async function atProvider(page: Page, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('whatever the provider asks');
  await page.locator('button[type=submit]').click();
}

test('an invitation joins through the provider; the person signs in with it later; a stranger is told why not', async ({
  page,
  browser,
}) => {
  // The owner (made from the password) makes an invitation.
  const login = await page.request.post(`${app.url}/api/auth/login`, { data: { password: PASSWORD } });
  expect(login.status()).toBe(200);
  const invite = await page.request.post(`${app.url}/api/people/invites`, { data: { role: 'member' } });
  const { path } = (await invite.json()) as { path: string };
  await page.context().clearCookies();

  await page.goto(`${app.url}${path}`);
  await page.getByTestId('join-sign-on').click();
  await atProvider(page, 'carol');
  await expect(page.getByTestId('composer')).toBeVisible();
  await expect(page.getByTestId('logged-in-as')).toContainText('carol');

  // Logged out, then in again with the button (the provider remembers her: no form this time).
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(`${app.url}/login`);
  await expect(page.getByTestId('sign-on')).toHaveText('Sign in with Test Provider');
  await page.getByTestId('sign-on').click();
  await expect(page.getByTestId('composer')).toBeVisible();
  await expect(page.getByTestId('logged-in-as')).toContainText('carol');

  // Someone the provider knows but Hearth does not: back at the login page, with the reason.
  const stranger = await browser.newPage();
  await stranger.goto(`${app.url}/login`);
  await stranger.getByTestId('sign-on').click();
  await atProvider(stranger, 'mallory');
  await expect(stranger).toHaveURL(/\/login\?signOn=failed/);
  await expect(stranger.getByTestId('login-error')).toContainText(
    "mallory@example.test has no account here. Ask this Hearth's owner for an invitation",
  );
  expect((await stranger.request.get(`${app.url}/api/threads`)).status()).toBe(401);
  await stranger.close();
});
