import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { domainAllowed, endedCookie, failedCookie, finishSignOn, signOnSetup } from '@/lib/services/auth/oidc';
import { clientAddress } from '@/lib/services/auth/rate-limit';
import { isHttps, sessionCookie } from '@/lib/services/auth/sessions';
import { getRuntime } from '@/lib/services/runtime';
import { HearthError, isHearthError } from '@/lib/shared/errors';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The provider sends the browser back: the answer checked and the code exchanged, the person
 * found (or made, when an invitation or their e-mail domain lets them join), a session begun and
 * the browser sent where it was going. A failure goes back to the login page, which says why:
 * this is a page the browser navigates to, not a call a script reads.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.signOnCallback, async ({ request }) => {
    const { config, auth } = await getRuntime();
    const setup = signOnSetup(config);
    if (!setup) throw new HearthError('not_found', 'Single sign-on is not set up here (HEARTH_OIDC_ISSUER).');
    const secure = isHttps(request);
    const headers = new Headers({ 'Cache-Control': 'no-store' });
    headers.append('Set-Cookie', endedCookie(secure));
    try {
      const signed = await finishSignOn(setup, new URL(request.url).search, request.headers.get('cookie'));
      const person = await auth.people.signOn(
        signed.subject,
        { email: signed.email, preferredUsername: signed.preferredUsername },
        { invite: signed.invite, byDomain: domainAllowed(setup, signed.email) },
      );
      if (!person)
        throw new HearthError(
          'forbidden',
          `${signed.email ? `${signed.email} has` : 'You have'} no account here. Ask this Hearth's owner for an invitation, and open its link.`,
        );
      const { token } = await auth.sessions.start(person, {
        userAgent: request.headers.get('user-agent'),
        address: clientAddress(request),
      });
      headers.append('Set-Cookie', sessionCookie(token, { maxAgeSeconds: auth.sessionMaxAgeSeconds, secure }));
      // On by a page of this site (app/signed-in): the session cookie is SameSite=Strict, and a browser
      // does not send it along a redirect chain that began at the provider (another site), so a
      // redirect straight on would land on the login page.
      headers.set('Location', `/signed-in?next=${encodeURIComponent(signed.next)}`);
    } catch (err) {
      if (!isHearthError(err)) throw err;
      headers.append('Set-Cookie', failedCookie(err.message, secure));
      headers.set('Location', '/login?signOn=failed');
    }
    return new Response(null, { status: 303, headers });
  }),
);
