/**
 * Security headers. Pages get a Content-Security-Policy with a fresh nonce per request
 * (proxy.ts makes it; Next puts it on its own scripts): scripts only from this origin and
 * only those carrying the nonce, no plugins, no framing, no <base> tricks, images and fetches
 * from this origin only. A remote image in model output therefore cannot load by itself; the
 * page shows it through /api/remote-image only after the user clicks (components/chat/Markdown.tsx).
 */

export function newNonce(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

export function pageSecurityPolicy(nonce: string, { dev = false }: { dev?: boolean } = {}): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic' lets the nonce-carrying scripts load Next's chunks; React needs eval only in development.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    // Inline style attributes (Tailwind-free widths, React's style props) are not a way to run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${dev ? ' ws:' : ''}`,
    // The audio of an answer read aloud is played from the blob it came in.
    "media-src 'self' blob:",
    "object-src 'none'",
    "frame-src 'none'",
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

// The headers every answer carries (nosniff, no framing, no referrer) and the API's own CSP are
// set for all paths in next.config.mjs, the one place that also reaches the streaming routes.
