import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { libraryDownload } from '@/lib/services/exports/library-response';
import { HearthError } from '@/lib/shared/errors';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The owner's copy of one person's library (a person leaving, a move): the same file their own Export gives. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.exportPersonLibrary, async ({ params: { id }, rt }) => {
    const person = await rt.auth.people.byId(id);
    if (!person) throw new HearthError('not_found', 'There is no person with that id.');
    return libraryDownload(await rt.hearth.as(person), rt.person, { name: person.username });
  }),
);
