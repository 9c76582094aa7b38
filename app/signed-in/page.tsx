import { SignedIn } from '@/components/auth/SignedIn';
import { safeNextPath } from '@/lib/services/auth/next-path';

export const metadata = { title: 'Signed in · Hearth' };

/**
 * Where single sign-on lands (app/api/auth/oidc/callback): the page moves on to where the person
 * was going itself, so that the move is a navigation from this site and the session cookie
 * (SameSite=Strict) goes with it. Open without a session: it shows nothing but the way on.
 */
export default async function SignedInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  return <SignedIn next={safeNextPath(Array.isArray(next) ? next[0] : next)} />;
}
