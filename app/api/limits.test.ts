import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { setRuntime } from '@/lib/services/runtime';
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DOCX_MIME } from '@/lib/data/files/extract';
import { FileStore } from '@/lib/data/file-store';
import { docxInflatingTo } from '@/lib/dev/testing/docx';
import { pdfInflatingTo } from '@/lib/dev/testing/pdf';
import { makeRuntime, req, upload } from './harness';
import * as threadsRoute from './threads/route';

const filesDir = (dataDir: string) => FileStore.of(dataDir).root;

/**
 * The upload limits the manual states, against its figures rather than the code's constants:
 * PDF, Word files and images up to 20 MB; text files up to HEARTH_MAX_UPLOAD_MB (512 by
 * default), and a changed value takes effect.
 */

after(() => setRuntime(undefined));

const MB = 1024 * 1024;
const code = (r: { status: number; body: unknown }) => [r.status, (r.body as { error?: { code: string } }).error?.code ?? 'ok'];

test('a PDF of 20 MB is taken as far as size goes; one byte more is 413', async () => {
  await makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1' });
  const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(size - 9, 0x20)]);
  const over = await upload('big.pdf', pdf(20 * MB + 1), 'application/pdf');
  assert.deepEqual(code(over), [413, 'too_large']);
  assert.match((over.body as { error: { message: string } }).error.message, /20 MB/);
  // Exactly 20 MB passes the size check (and is then refused as an unreadable PDF, not as too large).
  const at = await upload('edge.pdf', pdf(20 * MB), 'application/pdf');
  assert.notEqual(at.status, 413);
});

test('text files may be larger than 20 MB by default (512 MB); a smaller HEARTH_MAX_UPLOAD_MB takes effect', async () => {
  await makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1' });
  const text = 'a line of a log\n'.repeat(Math.ceil((21 * MB) / 16));
  assert.deepEqual(code(await upload('big.log', text)), [201, 'ok']);
  await makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1', env: { HEARTH_MAX_UPLOAD_MB: '1' } });
  assert.deepEqual(code(await upload('small.log', 'x\n'.repeat(MB))), [413, 'too_large'], 'just over 1 MB');
  assert.deepEqual(code(await upload('fits.log', 'x\n'.repeat(MB / 4))), [201, 'ok']);
});

test('a 180 KB Word file that inflates to 60 MB and a PDF whose stream inflates to 100 MB are 413; other requests are answered meanwhile; nothing is kept', async () => {
  const rt = await makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1' });
  for (const [name, bytes, type] of [
    ['bomb.docx', docxInflatingTo(60 * MB), DOCX_MIME],
    ['bomb.pdf', pdfInflatingTo(100 * MB), 'application/pdf'],
  ] as const) {
    // The server's thread is never held for as long as a second while the document is read
    // (reading the PDF on it took 15 s), and a request made meanwhile is answered.
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const uploading = upload(name, bytes, type);
    assert.equal((await threadsRoute.GET(req('GET', '/api/threads'))).status, 200);
    const refused = await uploading;
    delay.disable();
    assert.ok(delay.max < 1e9, `${name}: the event loop waited ${Math.round(delay.max / 1e6)} ms at most`);
    assert.deepEqual(code(refused), [413, 'too_large'], name);
    assert.match(
      (refused.body as { error: { message: string } }).error.message,
      /too large to read: its (parts|text streams) inflate to more than 32 MB/,
    );
  }
  const dir = filesDir(rt.config.DATA_DIR);
  assert.deepEqual(
    fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).filter((f) => !String(f).startsWith('tmp')) : [],
    [],
    'no file kept for a refused document',
  );
});
