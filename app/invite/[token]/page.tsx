import { InviteForm } from '@/components/auth/InviteForm';
import { getRuntime } from '@/lib/services/runtime';
import { signOnSetup } from '@/lib/services/auth/oidc';

export const metadata = { title: 'Join · Hearth' };

/** An invitation link: the form to choose a name and password, or why the link no longer works. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { auth, config } = await getRuntime();
  const role = await auth.people.inviteOpen(token);
  return <InviteForm token={token} role={role} signOn={signOnSetup(config)?.name} />;
}
