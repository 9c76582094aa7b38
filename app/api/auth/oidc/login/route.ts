import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { beginSignOn, signOnSetup } from '@/lib/services/auth/oidc';
import { isHttps } from '@/lib/services/auth/sessions';
import { getRuntime } from '@/lib/services/runtime';
import { HearthError } from '@/lib/shared/errors';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Single sign-on begins: the browser goes to the provider, the flow's secrets wait in a cookie. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.signOn, async ({ request, query }) => {
    const setup = signOnSetup((await getRuntime()).config);
    if (!setup) throw new HearthError('not_found', 'Single sign-on is not set up here (HEARTH_OIDC_ISSUER).');
    const { next, invite } = query();
    const { url, cookie } = await beginSignOn(setup, { next, invite, secure: isHttps(request) });
    return new Response(null, { status: 303, headers: { Location: url, 'Set-Cookie': cookie, 'Cache-Control': 'no-store' } });
  }),
);
