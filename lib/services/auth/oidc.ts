import * as client from 'openid-client';
import { z } from 'zod';
import type { Config } from '@/lib/shared/config';
import { HearthError } from '@/lib/shared/errors';
import { cookieValue } from './cookies';
import { safeNextPath } from './next-path';

/**
 * Single sign-on with OpenID Connect (docs/sharing.md), through `openid-client`: the provider is
 * found by discovery, a login is the authorization code flow with PKCE, state and nonce, and a
 * person is who the provider's `sub` claim says (with its issuer: the same `sub` at another
 * provider is someone else). What the flow needs between the redirect and the callback waits in
 * a short-lived cookie of its own path. Who may join is People.signOn's to decide.
 */

export type SignOnSetup = {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** The callback address registered with the provider: the token request names it, so it is this, never the request's own URL. */
  redirectUrl: string;
  /** "Sign in with …" */
  name: string;
  /** E-mail domains whose people join as members by signing on. */
  domains: readonly string[];
};

/** Single sign-on as the environment sets it up; null when it is not. */
export function signOnSetup(config: Config): SignOnSetup | null {
  if (!config.HEARTH_OIDC_ISSUER || !config.HEARTH_OIDC_CLIENT_ID || !config.HEARTH_OIDC_REDIRECT_URL) return null;
  return {
    issuer: config.HEARTH_OIDC_ISSUER,
    clientId: config.HEARTH_OIDC_CLIENT_ID,
    clientSecret: config.HEARTH_OIDC_CLIENT_SECRET,
    redirectUrl: config.HEARTH_OIDC_REDIRECT_URL,
    name: config.HEARTH_OIDC_NAME,
    domains: config.HEARTH_OIDC_DOMAINS,
  };
}

/** The cookie the flow's secrets wait in, from the redirect to the callback. */
export const PENDING_COOKIE = 'hearth_oidc';
const PENDING_PATH = '/api/auth/oidc';
const PENDING_SECONDS = 600;

const pending = z.object({
  verifier: z.string().min(43).max(128),
  state: z.string().min(1).max(200),
  nonce: z.string().min(1).max(200),
  next: z.string().max(2000),
  invite: z.string().max(100).optional(),
});
type Pending = z.infer<typeof pending>;

const key = Symbol.for('hearth.oidc-discovery');
type Holder = { [key]?: Map<string, Promise<client.Configuration>> };

/** The provider's configuration, found once per process (again after a failure: the provider may have been down). */
function discovered(setup: SignOnSetup): Promise<client.Configuration> {
  const holder = globalThis as Holder;
  const found = (holder[key] ??= new Map());
  const id = `${setup.issuer}\n${setup.clientId}`;
  let config = found.get(id);
  if (!config) {
    // A provider on plain http (a test, or one on the same machine) needs saying so; https ones never do.
    const insecure = new URL(setup.issuer).protocol === 'http:';
    config = client.discovery(
      new URL(setup.issuer),
      setup.clientId,
      setup.clientSecret,
      undefined,
      insecure ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    config.catch(() => found.delete(id));
    found.set(id, config);
  }
  return config.catch((err: Error) => {
    throw new HearthError('sign_on_unreachable', `The sign-on provider at ${setup.issuer} did not answer: ${err.message}`);
  });
}

/** Where the browser goes to sign on, and the cookie that keeps the flow's secrets until it comes back. */
export async function beginSignOn(
  setup: SignOnSetup,
  { next, invite, secure }: { next?: string | null; invite?: string | null; secure: boolean },
): Promise<{ url: string; cookie: string }> {
  const config = await discovered(setup);
  const flow: Pending = {
    verifier: client.randomPKCECodeVerifier(),
    state: client.randomState(),
    nonce: client.randomNonce(),
    next: safeNextPath(next ?? undefined),
    ...(invite ? { invite } : {}),
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: setup.redirectUrl,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: 'S256',
    state: flow.state,
    nonce: flow.nonce,
  });
  const value = Buffer.from(JSON.stringify(flow)).toString('base64url');
  // Lax, not Strict: the provider's redirect back is a navigation from another site.
  const cookie = `${PENDING_COOKIE}=${value}; Path=${PENDING_PATH}; Max-Age=${PENDING_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  return { url: url.href, cookie };
}

/**
 * Why a sign-on let no one in, for the login page to say: in a cookie of Hearth's own for a
 * minute, not in the link (a link anyone can make would put anyone's words on Hearth's page).
 */
export const FAILED_COOKIE = 'hearth_sign_on_failed';
export const failedCookie = (message: string, secure: boolean) =>
  `${FAILED_COOKIE}=${encodeURIComponent(message.slice(0, 500))}; Path=/login; Max-Age=60; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
/** The reason a failed sign-on left, as the login page reads it from its cookie. */
export const failedReason = (value: string | undefined): string | undefined => {
  if (!value) return undefined;
  try {
    return decodeURIComponent(value).slice(0, 500);
  } catch {
    // Already decoded on the way in (a % of its own in the words).
    return value.slice(0, 500);
  }
};

/** The cookie that ends the flow (sent with the callback's answer, whatever it is). */
export const endedCookie = (secure: boolean) =>
  `${PENDING_COOKIE}=; Path=${PENDING_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

/** Who signed on: the provider's subject (issuer and `sub`), what it says of them, and where they were going. */
export type SignedOn = {
  subject: string;
  /** Their address, only when the provider verified it (an unverified one says nothing of a domain). */
  email?: string;
  preferredUsername?: string;
  next: string;
  invite?: string;
};

/** The provider's answer checked (state, PKCE, nonce, the ID token) and the code exchanged: who signed on. */
export async function finishSignOn(setup: SignOnSetup, callbackSearch: string, cookieHeader: string | null): Promise<SignedOn> {
  const raw = cookieValue(cookieHeader, PENDING_COOKIE);
  let flow: Pending;
  try {
    flow = pending.parse(JSON.parse(Buffer.from(raw ?? '', 'base64url').toString('utf8')));
  } catch {
    throw new HearthError('bad_request', 'This sign-on was not begun here, or took longer than ten minutes: sign in again.');
  }
  const config = await discovered(setup);
  const back = new URL(setup.redirectUrl);
  back.search = callbackSearch;
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(config, back, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
  } catch (err) {
    const said = back.searchParams.get('error_description') ?? back.searchParams.get('error');
    throw new HearthError('unauthorized', `The sign-on did not succeed: ${said ?? (err as Error).message}`);
  }
  let claims: Record<string, unknown> = { ...tokens.claims() };
  // Providers that keep e-mail and names to the userinfo endpoint (as the specification's default has it).
  if (claims.email === undefined && tokens.access_token) {
    try {
      claims = { ...(await client.fetchUserInfo(config, tokens.access_token, String(claims.sub))), ...claims };
    } catch {
      // Without it, the person is still who `sub` says; only joining by domain needs the address.
    }
  }
  // Only an address the provider says it verified: one a person merely typed there says nothing of their domain.
  const email = typeof claims.email === 'string' && claims.email_verified === true ? claims.email.toLowerCase() : undefined;
  const preferred = [claims.preferred_username, claims.nickname, claims.name].find((v) => typeof v === 'string' && v.trim());
  return {
    subject: `${config.serverMetadata().issuer} ${String(claims.sub)}`,
    email,
    preferredUsername: preferred as string | undefined,
    next: flow.next,
    invite: flow.invite,
  };
}

/** Whether an address's domain lets its person join (the setup's domains; none: invitations only). */
export function domainAllowed(setup: SignOnSetup, email: string | undefined): boolean {
  const domain = email?.split('@')[1];
  return Boolean(domain && setup.domains.includes(domain));
}
