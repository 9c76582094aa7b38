/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and heavy server packages stay outside the bundle (better-sqlite3 is on Next's
  // default list already; naming it documents intent).
  serverExternalPackages: ['better-sqlite3', 'linkedom', '@mozilla/readability'],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
