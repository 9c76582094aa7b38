import type { Runtime } from '@/lib/services/runtime';
import { exportLibrary } from './library';

/**
 * A library file as the answer of a download: `library` is whose library, `asker` who asks (the
 * tool servers, which only an admin or the owner sees, go only into theirs; secrets masked).
 */
export function libraryDownload(
  library: Runtime,
  asker: Runtime['person'],
  { theme, name }: { theme?: string; name?: string } = {},
): Response {
  const now = Date.now();
  const day = new Date(now).toISOString().slice(0, 10);
  const toolServers = asker.role === 'member' ? [] : library.toolServers.forExport();
  return new Response(exportLibrary({ store: library.store, files: library.files, now, theme, toolServers }), {
    headers: {
      'Content-Type': 'application/x-ndjson; charset=utf-8',
      'Content-Disposition': `attachment; filename="hearth-library-${name ? `${name}-` : ''}${day}.jsonl"`,
      'Cache-Control': 'no-store',
    },
  });
}
