/** panva's oidc-provider ships no types; the test provider (e2e/oidc-provider.ts) names what it uses. */
declare module 'oidc-provider';
