/**
 * The security headers every answer carries (e2e/contract/security.test.ts checks them on the
 * built app). Pages get their Content-Security-Policy, with a per-request nonce, from proxy.ts
 * (lib/http/security-headers.ts); API answers are data, never documents, so nothing in one may
 * run or load even when it is opened directly.
 */
const commonSecurityHeaders = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  // The microphone only for Hearth's own page (speak to type); every other power stays off.
  'Permissions-Policy': 'camera=(), microphone=(self), geolocation=(), payment=(), usb=()',
};
const apiSecurityPolicy = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and heavy server packages stay outside the bundle (better-sqlite3 is on Next's
  // default list already; naming it documents intent).
  serverExternalPackages: ['better-sqlite3', 'sqlite-vec', 'linkedom', '@mozilla/readability', 'undici'],
  poweredByHeader: false,
  experimental: {
    // On a path the proxy runs on, Next buffers the request body up to this. The proxy runs
    // for pages only (proxy.ts), and no page takes a body (Hearth has no server actions; every
    // write goes to /api, which the proxy leaves alone), so a stranger's POST to a page costs
    // at most this much memory.
    proxyClientMaxBodySize: '64kb',
  },
  reactStrictMode: true,
  // `npm start` builds without type-checking (scripts/prepare-start.ts): it adds most of a
  // minute to a first start and finds nothing in a release; `npm test` and CI type-check.
  typescript: { ignoreBuildErrors: process.env.HEARTH_SKIP_TYPECHECK === '1' },
  async headers() {
    const common = Object.entries(commonSecurityHeaders).map(([key, value]) => ({ key, value }));
    return [
      { source: '/:path*', headers: common },
      { source: '/api/:path*', headers: [{ key: 'Content-Security-Policy', value: apiSecurityPolicy }] },
    ];
  },
};

export default nextConfig;
