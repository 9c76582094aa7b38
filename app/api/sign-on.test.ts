import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startProvider, type TestProvider } from '@/e2e/oidc-provider';
import { base, makeRuntime, params, req } from './harness';
import * as callbackRoute from './auth/oidc/callback/route';
import * as signOnRoute from './auth/oidc/login/route';
import * as sessionRoute from './auth/session/route';
import * as threadsRoute from './threads/route';
import type { Hearth } from '@/lib/services/runtime';

/**
 * Single sign-on (issue 48, item 2) through the routes against a real OpenID Connect provider
 * (oidc-provider, run here): the redirect with PKCE, state and nonce, the provider's login page,
 * the callback, and who may come in: an invitation's person, a domain's when the owner allows
 * it, never anyone else, never a disabled account, never a forged or stale callback. The
 * browser test (e2e/sign-on.spec.ts) walks the same flow in Chromium.
 */

const CALLBACK = `${base}/api/auth/oidc/callback`;
let provider: TestProvider;
let hearth: Hearth;

const start = async (env: Record<string, string> = {}) => {
  hearth = (
    await makeRuntime({
      llamaUrl: 'http://127.0.0.1:9/v1',
      env: {
        HEARTH_OIDC_ISSUER: provider.issuer,
        HEARTH_OIDC_CLIENT_ID: provider.clientId,
        HEARTH_OIDC_CLIENT_SECRET: provider.clientSecret,
        HEARTH_OIDC_REDIRECT_URL: CALLBACK,
        HEARTH_OIDC_NAME: 'Test Provider',
        ...env,
      },
    })
  ).hearth;
  await hearth.auth.people.add({ username: 'olive', role: 'owner', password: 'correct horse battery staple' });
};

before(async () => {
  provider = await startProvider({ redirectUris: [CALLBACK] });
  await start();
});
after(() => provider.close());

/** The provider's cookies, as a browser keeps them between its pages (by path). */
class Jar {
  private readonly cookies = new Map<string, { value: string; path: string }>();
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';').map((p) => p.trim());
      const eq = pair.indexOf('=');
      const path = attrs.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      this.cookies.set(pair.slice(0, eq), { value: pair.slice(eq + 1), path });
    }
  }
  header(url: URL) {
    return [...this.cookies]
      .filter(([, c]) => url.pathname.startsWith(c.path))
      .map(([n, c]) => `${n}=${c.value}`)
      .join('; ');
  }
}

/** Through the provider's own pages as a browser would: its login form filled in as `login`; where it sends the browser back. */
async function atProvider(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Jar();
  let url = new URL(authorizationUrl);
  let init: RequestInit = {};
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, { ...init, headers: { ...(init.headers as object), cookie: jar.header(url) }, redirect: 'manual' });
    jar.take(res);
    init = {};
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, url);
      if (next.href.startsWith(CALLBACK)) return next;
      url = next;
      continue;
    }
    const page = await res.text();
    assert.equal(res.status, 200, page);
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    assert.ok(action && /name="login"/.test(page), `the provider's login form: ${page.slice(0, 300)}`);
    url = new URL(action, url);
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'anything' }).toString(),
    };
  }
  assert.fail('the provider did not send the browser back');
}

/** A whole sign-on as `login`: where Hearth sends the browser at the end, and the session cookie it set, if any. */
async function signOn(login: string, query = ''): Promise<{ location: string; session?: string; failed?: string; pending: string }> {
  const begun = await signOnRoute.GET(req('GET', `/api/auth/oidc/login${query}`), params({}));
  assert.equal(begun.status, 303, await begun.clone().text());
  const pending = /hearth_oidc=[^;]+/.exec(begun.headers.getSetCookie().join('\n'))![0];
  const back = await atProvider(begun.headers.get('location')!, login);
  const ended = await callbackRoute.GET(req('GET', `/api/auth/oidc/callback${back.search}`, undefined, { cookie: pending }), params({}));
  const cookies = ended.headers.getSetCookie();
  assert.ok(
    cookies.some((c) => /^hearth_oidc=;.*Max-Age=0/.test(c)),
    'the flow’s cookie is ended whatever the outcome',
  );
  assert.equal(ended.status, 303);
  const session = /hearth_session=[^;]+/.exec(cookies.join('\n'))?.[0];
  const location = ended.headers.get('location')!;
  if (!session) {
    // Why, for the login page: in a cookie of Hearth's own, never in the link.
    assert.equal(location, '/login?signOn=failed');
    const failed = /hearth_sign_on_failed=([^;]*);.*Path=\/login.*HttpOnly/.exec(cookies.join('\n'));
    assert.ok(failed, cookies.join('\n'));
    return { location, failed: decodeURIComponent(failed[1]), pending };
  }
  // Logged in: on by a page of this site (a redirect from the provider's chain would not carry the Strict cookie).
  assert.match(location, /^\/signed-in\?next=/);
  return { location: new URL(location, base).searchParams.get('next')!, session, pending };
}

const whoIs = async (cookie: string) =>
  (
    (await (await sessionRoute.GET(req('GET', '/api/auth/session', undefined, { cookie }), params({}))).json()) as {
      person?: { username: string; role: string };
    }
  ).person;

describe('single sign-on', () => {
  test('the login page is offered it; the redirect asks for a code with PKCE (S256), state and nonce', async () => {
    const state = (await (await sessionRoute.GET(req('GET', '/api/auth/session'), params({}))).json()) as { signOn?: { name: string } };
    assert.deepEqual(state.signOn, { name: 'Test Provider' });
    const begun = await signOnRoute.GET(req('GET', '/api/auth/oidc/login?next=/t/abc'), params({}));
    const to = new URL(begun.headers.get('location')!);
    assert.equal(to.origin, provider.issuer);
    assert.equal(to.searchParams.get('response_type'), 'code');
    assert.equal(to.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(to.searchParams.get('redirect_uri'), CALLBACK);
    for (const p of ['code_challenge', 'state', 'nonce']) assert.ok(to.searchParams.get(p), p);
    const cookie = begun.headers.get('set-cookie')!;
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.match(cookie, /Path=\/api\/auth\/oidc/);
  });

  test('someone with no account and no invitation is not let in, and is told how to be', async () => {
    const { failed, session } = await signOn('stranger');
    assert.equal(session, undefined);
    assert.match(failed!, /^stranger@example\.test has no account here\. Ask this Hearth's owner for an invitation/);
    assert.equal(
      (await hearth.auth.people.list()).some((p) => p.username === 'stranger'),
      false,
    );
  });

  test('an invitation’s link joins through the provider: the account is theirs by its `sub`, once', async () => {
    const { token } = await hearth.auth.people.invite((await hearth.auth.people.owner())!, 'admin');
    const joined = await signOn('carol', `?invite=${token}&next=/settings`);
    assert.equal(joined.location, '/settings');
    assert.deepEqual(await whoIs(joined.session!), { username: 'carol', role: 'admin' });
    const carol = (await hearth.auth.people.list()).find((p) => p.username === 'carol')!;
    assert.equal(carol.singleSignOn, true);
    assert.equal(carol.hasPassword, false);
    assert.equal(carol.email, 'carol@example.test');
    // The link is used up; signing on again is the same person, without it.
    assert.equal(await hearth.auth.people.inviteOpen(token), null);
    const again = await signOn('carol');
    assert.deepEqual(await whoIs(again.session!), { username: 'carol', role: 'admin' });
    assert.equal((await hearth.auth.people.list()).filter((p) => p.username.startsWith('carol')).length, 1);
    // With the session, the API answers.
    const threads = await threadsRoute.GET(req('GET', '/api/threads', undefined, { cookie: again.session! }), params({}));
    assert.equal(threads.status, 200);
    // Disabled: not let in.
    await hearth.auth.people.setDisabled('carol', true);
    const refused = await signOn('carol');
    assert.equal(refused.session, undefined);
    assert.match(refused.failed!, /has no account here/);
    await hearth.auth.people.setDisabled('carol', false);
  });

  test('a callback not begun here, or with another state, logs no one in', async () => {
    // No cookie of the flow: the provider's answer alone is not enough.
    const begun = await signOnRoute.GET(req('GET', '/api/auth/oidc/login'), params({}));
    const back = await atProvider(begun.headers.get('location')!, 'carol');
    const bare = await callbackRoute.GET(req('GET', `/api/auth/oidc/callback${back.search}`), params({}));
    assert.equal(bare.headers.get('location'), '/login?signOn=failed');
    assert.match(decodeURIComponent(bare.headers.get('set-cookie')!), /hearth_sign_on_failed=This sign-on was not begun here/);
    // Another flow's cookie: its state and verifier do not match this answer.
    const other = await signOnRoute.GET(req('GET', '/api/auth/oidc/login'), params({}));
    const otherCookie = /hearth_oidc=[^;]+/.exec(other.headers.get('set-cookie')!)![0];
    const crossed = await callbackRoute.GET(
      req('GET', `/api/auth/oidc/callback${back.search}`, undefined, { cookie: otherCookie }),
      params({}),
    );
    assert.match(decodeURIComponent(crossed.headers.getSetCookie().join('\n')), /hearth_sign_on_failed=The sign-on did not succeed/);
    assert.equal(
      crossed.headers.getSetCookie().some((c) => c.startsWith('hearth_session=')),
      false,
    );
    // A next that leaves the site is not followed.
    const { token } = await hearth.auth.people.invite((await hearth.auth.people.owner())!, 'member');
    const away = await signOn('erin', `?invite=${token}&next=${encodeURIComponent('//evil.example/')}`);
    assert.equal(away.location, '/');
  });

  test('people of an allowed e-mail domain join as members; the provider being down is said', async () => {
    await start({ HEARTH_OIDC_DOMAINS: 'other.example, @example.test' });
    const joined = await signOn('dave');
    assert.deepEqual(await whoIs(joined.session!), { username: 'dave', role: 'member' });
    // An address the provider did not verify says nothing of its domain.
    const unverified = await signOn('unverified-eve');
    assert.equal(unverified.session, undefined);
    assert.match(unverified.failed!, /^You have no account here/);
    await start({ HEARTH_OIDC_ISSUER: 'http://127.0.0.1:9' });
    const down = await signOnRoute.GET(req('GET', '/api/auth/oidc/login'), params({}));
    assert.equal(down.status, 503);
    assert.match(
      ((await down.json()) as { error: { message: string } }).error.message,
      /sign-on provider at http:\/\/127\.0\.0\.1:9 did not answer/,
    );
  });
});
