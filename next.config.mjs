/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and heavy server packages stay outside the bundle (better-sqlite3 is on Next's
  // default list already; naming it documents intent).
  serverExternalPackages: ['better-sqlite3', 'linkedom', '@mozilla/readability'],
  poweredByHeader: false,
  experimental: {
    // With a proxy (proxy.ts), Next buffers request bodies and silently cuts them at 10 MB.
    // Uploads may be 20 MB (MAX_FILE_BYTES) plus the multipart envelope; the route itself
    // refuses anything larger with 413, so this only has to sit above that cap.
    proxyClientMaxBodySize: '21mb',
  },
  reactStrictMode: true,
};

export default nextConfig;
