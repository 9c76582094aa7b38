/**
 * The security headers every answer carries (e2e/contract/security.test.ts checks them on the
 * built app). Pages get their Content-Security-Policy, with a per-request nonce, from proxy.ts
 * (lib/api/security-headers.ts); API answers are data, never documents, so nothing in one may
 * run or load even when it is opened directly.
 */
const commonSecurityHeaders = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};
const apiSecurityPolicy = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and heavy server packages stay outside the bundle (better-sqlite3 is on Next's
  // default list already; naming it documents intent).
  serverExternalPackages: ['better-sqlite3', 'linkedom', '@mozilla/readability', 'undici'],
  poweredByHeader: false,
  experimental: {
    // With a proxy (proxy.ts), Next buffers request bodies and silently cuts them at 10 MB.
    // Uploads may be 20 MB (MAX_FILE_BYTES) plus the multipart envelope; the route itself
    // refuses anything larger with 413, so this only has to sit above that cap.
    proxyClientMaxBodySize: '21mb',
  },
  reactStrictMode: true,
  async headers() {
    const common = Object.entries(commonSecurityHeaders).map(([key, value]) => ({ key, value }));
    return [
      { source: '/:path*', headers: common },
      { source: '/api/:path*', headers: [{ key: 'Content-Security-Policy', value: apiSecurityPolicy }] },
    ];
  },
};

export default nextConfig;
