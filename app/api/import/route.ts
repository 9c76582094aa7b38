import { Readable } from 'node:stream';
import { endpoints } from '@/lib/contract/endpoints';
import { THEME_COOKIE, themeCookie } from '@/lib/contract/theme';
import { on, reply, serve } from '@/lib/http/serve';
import { cookieValue } from '@/lib/services/auth/cookies';
import { HearthError } from '@/lib/shared/errors';
import { runImport } from '@/lib/services/library/import-job';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Imports a library file (from GET /api/export) or one thread's JSON export, sent as the raw
 * request body (a form is refused: send the file itself). All or nothing: a broken or foreign
 * file is a 400 naming the line and what is wrong, and nothing is added. What is already here
 * (the same ids) is kept as it is, so importing twice changes nothing.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.importLibrary, async ({ request, rt }) => {
    if (!request.body) throw new HearthError('bad_request', 'The request has no body: send the library file.');
    const { config, store, files, updates, settings, knowledge } = rt;
    const maxBytes = config.HEARTH_MAX_IMPORT_MB * 1024 * 1024;
    if (Number(request.headers.get('content-length') ?? 0) > maxBytes) {
      throw new HearthError('too_large', `The import is larger than ${config.HEARTH_MAX_IMPORT_MB} MB (HEARTH_MAX_IMPORT_MB).`);
    }
    const body = Readable.fromWeb(request.body as import('node:stream/web').ReadableStream<Uint8Array>);
    // Read, checked and applied in a worker thread: this one only receives the bytes.
    const { theme, ...summary } = await runImport(body, {
      files,
      place: store.place,
      maxBytes,
      maxDbBytes: config.HEARTH_MAX_DB_MB && config.HEARTH_MAX_DB_MB * 1024 * 1024,
    });
    if (summary.added.settings > 0) await settings.reread();
    // Imported collections' files are cut and embedded here, as uploaded ones are.
    if (summary.added.collectionFiles > 0) knowledge.indexer.wake();
    // What the file proposed waits in Settings, except what is already so here.
    const waiting = new Set((await settings.view()).proposals.map((p) => p.key));
    summary.proposed = summary.proposed.filter((key) => waiting.has(key));
    updates.publish({ type: 'library' });
    // The file's theme comes into this browser only where none was chosen here (as a setting already made here stays).
    if (theme && !cookieValue(request.headers.get('cookie'), THEME_COOKIE)) {
      return reply({ ...summary, theme }, 200, { 'Set-Cookie': themeCookie(theme) });
    }
    return reply(summary);
  }),
);
