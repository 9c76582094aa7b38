import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { setRuntime } from '@/lib/server/runtime';
import { makeRuntime, upload } from './harness';

/**
 * The upload limits the README states, against its figures rather than the code's constants:
 * PDF, Word files and images up to 20 MB; text files up to HEARTH_MAX_UPLOAD_MB (512 by
 * default), and a changed value takes effect.
 */

after(() => setRuntime(undefined));

const MB = 1024 * 1024;
const code = (r: { status: number; body: unknown }) => [r.status, (r.body as { error?: { code: string } }).error?.code ?? 'ok'];

test('a PDF of 20 MB is taken as far as size goes; one byte more is 413', async () => {
  makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1' });
  const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(size - 9, 0x20)]);
  const over = await upload('big.pdf', pdf(20 * MB + 1), 'application/pdf');
  assert.deepEqual(code(over), [413, 'too_large']);
  assert.match((over.body as { error: { message: string } }).error.message, /20 MB/);
  // Exactly 20 MB passes the size check (and is then refused as an unreadable PDF, not as too large).
  const at = await upload('edge.pdf', pdf(20 * MB), 'application/pdf');
  assert.notEqual(at.status, 413);
});

test('text files may be larger than 20 MB by default (512 MB); a smaller HEARTH_MAX_UPLOAD_MB takes effect', async () => {
  makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1' });
  const text = 'a line of a log\n'.repeat(Math.ceil((21 * MB) / 16));
  assert.deepEqual(code(await upload('big.log', text)), [201, 'ok']);
  makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1', env: { HEARTH_MAX_UPLOAD_MB: '1' } });
  assert.deepEqual(code(await upload('small.log', 'x\n'.repeat(MB))), [413, 'too_large'], 'just over 1 MB');
  assert.deepEqual(code(await upload('fits.log', 'x\n'.repeat(MB / 4))), [201, 'ok']);
});
