import { redirect } from 'next/navigation';
import { cookies } from 'next/headers';
import { LoginForm } from '@/components/auth/LoginForm';
import { safeNextPath } from '@/lib/services/auth/next-path';
import { SESSION_COOKIE } from '@/lib/services/auth/sessions';
import { getRuntime } from '@/lib/services/runtime';

export const metadata = { title: 'Log in · Hearth' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  const target = safeNextPath(Array.isArray(next) ? next[0] : next);
  const { auth } = getRuntime();
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  // Nothing to log in to, or already logged in: straight on.
  if (!auth.required() || auth.sessions.valid(token)) redirect(target);
  // One person who can log in: the password alone, as before accounts.
  return <LoginForm next={target} askName={!auth.people.only()} />;
}
