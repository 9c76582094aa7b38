import type { Metadata, Viewport } from 'next';
import { cookies } from 'next/headers';
import { connection } from 'next/server';
import { parseTheme, THEME_COOKIE } from '@/lib/contract/theme';
import './globals.css';

export const metadata: Metadata = {
  title: 'Hearth',
  description: 'Chat with the model on your own machine',
  icons: { icon: '/favicon.svg' },
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

/**
 * Every page renders per request: its Content-Security-Policy carries a fresh nonce (proxy.ts)
 * that Next puts on its scripts, and a page built once at build time could not carry it.
 */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  await connection();
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" data-theme={theme}>
      <body className="h-dvh overflow-hidden antialiased">{children}</body>
    </html>
  );
}
