import { redirect } from 'next/navigation';
import { cookies } from 'next/headers';
import { LoginForm } from '@/components/auth/LoginForm';
import { safeNextPath } from '@/lib/services/auth/next-path';
import { SESSION_COOKIE } from '@/lib/services/auth/sessions';
import { getRuntime } from '@/lib/services/runtime';
import { FAILED_COOKIE, failedReason, signOnSetup } from '@/lib/services/auth/oidc';

export const metadata = { title: 'Log in · Hearth' };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[]; signOn?: string | string[] }>;
}) {
  const { next, signOn } = await searchParams;
  const target = safeNextPath(Array.isArray(next) ? next[0] : next);
  const { auth, config } = await getRuntime();
  const jar = await cookies();
  const token = jar.get(SESSION_COOKIE)?.value;
  // Nothing to log in to, or already logged in: straight on.
  if (!(await auth.required()) || (await auth.sessions.valid(token))) redirect(target);
  // One person who can log in: the password alone, as before accounts.
  // A sign-on that came back without a login says why (the callback's words, from its cookie).
  const failed = signOn === 'failed' ? (failedReason(jar.get(FAILED_COOKIE)?.value) ?? 'The sign-on did not succeed.') : undefined;
  return <LoginForm next={target} askName={!(await auth.people.only())} signOn={signOnSetup(config)?.name} failed={failed} />;
}
