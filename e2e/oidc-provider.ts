import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real OpenID Connect provider for the tests: panva's `oidc-provider` (the certified library
 * many providers are built on), run on 127.0.0.1 over plain http with one client, Hearth. Its
 * built-in login page takes any name (the name becomes `sub`, and name@example.test the verified
 * e-mail, unverified for a name starting "unverified") with any password; consent is given for Hearth without a page. PKCE is required, as a
 * careful provider would have it.
 */

export type TestProvider = { issuer: string; clientId: string; clientSecret: string; close(): Promise<void> };

/** E-mail addresses the provider gives: `<login>@example.test`, verified. */
export const PROVIDER_DOMAIN = 'example.test';

export async function startProvider({ redirectUris }: { redirectUris: string[] }): Promise<TestProvider> {
  const clientId = 'hearth';
  const clientSecret = randomBytes(24).toString('base64url');
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A key of its own each run (without one it would sign with a key published in the package, and say so).
  const signingKey = {
    ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
    kid: 'test',
    use: 'sig',
  };
  // The library notes at start that it keeps its state in memory and that its login page is for development: so it is, here.
  const { warn, info } = console;
  const quiet =
    (say: (...a: unknown[]) => void) =>
    (...a: unknown[]) => {
      if (!(typeof a[0] === 'string' && a[0].includes('oidc-provider'))) say(...a);
    };
  console.warn = quiet(warn);
  console.info = quiet(info);
  let provider: { callback(): (req: unknown, res: unknown) => void };
  try {
    // The library ships no types (e2e/types/oidc-provider.d.ts): its constructor is named here, as the test uses it.
    const { default: Provider } = (await import('oidc-provider')) as {
      default: new (issuer: string, config: Record<string, unknown>) => typeof provider;
    };
    provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUris,
          response_types: ['code'],
          grant_types: ['authorization_code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      pkce: { required: () => true },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
      scopes: ['openid', 'email', 'profile'],
      // The claims in the ID token too (a provider may keep them to userinfo: Hearth asks there when they are missing).
      conformIdTokenClaims: false,
      async findAccount(_ctx: unknown, id: string) {
        return {
          accountId: id,
          async claims() {
            // A login starting "unverified" has an address the provider never checked.
            const verified = !id.startsWith('unverified');
            return { sub: id, email: `${id}@${PROVIDER_DOMAIN}`, email_verified: verified, preferred_username: id, name: id };
          },
        };
      },
      // Consent for Hearth is given: no page to click through.
      async loadExistingGrant(ctx: {
        oidc: {
          provider: {
            Grant: { new (a: object): { addOIDCScope(s: string): void; save(): Promise<void> }; find(id: string): Promise<unknown> };
          };
          session: { accountId: string; grantIdFor(c: string): string | undefined };
          client: { clientId: string };
          result?: { consent?: { grantId?: string } };
        };
      }) {
        const known = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
        if (known) {
          const grant = await ctx.oidc.provider.Grant.find(known);
          if (grant) return grant;
        }
        const grant = new ctx.oidc.provider.Grant({ clientId, accountId: ctx.oidc.session.accountId });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
      features: { devInteractions: { enabled: true } },
      jwks: { keys: [signingKey] },
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 3600, Session: 86400, Grant: 86400 },
    });
  } finally {
    console.warn = warn;
    console.info = info;
  }
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
