/**
 * The import part of `npm run bench`: a 200 MB ChatGPT export (5,000 conversations) sent to the
 * built app (`next start`, built first when there is no build) as the Import button sends it,
 * timed, with the server's peak resident memory (VmHWM) before and after: the export streams in
 * a conversation at a time, so the peak stays far below the file's size.
 */
import { performance } from 'node:perf_hooks';
import { startHearth } from '../e2e/contract/hearth-server';
import { memoryMb } from '../e2e/load/load';
import { startLlamaDouble } from '../e2e/double/llama-double';
import { largeChatgptExportBody } from '../lib/dev/testing/chatgpt-export';
import { ensureBuilt } from './bench-load';

export async function measureImport({ conversations = 5000 }: { conversations?: number } = {}) {
  ensureBuilt();
  const double = await startLlamaDouble();
  const hearth = await startHearth({ LLAMA_URL: double.url });
  try {
    const idleMb = memoryMb(hearth.pid, 'VmRSS');
    // About 40 kB a conversation: four messages of 400 words and the metadata ChatGPT puts on each.
    const { body, sent } = largeChatgptExportBody({ conversations, wordsPerMessage: 400, metadataBytes: 30_000 });
    const started = performance.now();
    const res = await fetch(`${hearth.url}/api/import`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      body,
      duplex: 'half',
    } as RequestInit);
    const answer = (await res.json()) as { added?: { threads: number }; error?: { message: string } };
    const seconds = (performance.now() - started) / 1000;
    if (!res.ok || answer.added?.threads !== conversations) throw new Error(`the import failed: ${JSON.stringify(answer).slice(0, 300)}`);
    return { megabytes: sent() / 1e6, conversations, seconds, idleMb, peakMb: memoryMb(hearth.pid, 'VmHWM') };
  } finally {
    await hearth.stop();
    await double.close();
  }
}
