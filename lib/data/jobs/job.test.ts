import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { runJob } from './job';

/** A job's ways to end, each with a script of its own. */

const script = (body: string) => {
  const file = path.join(makeTempDir('hearth-job'), 'job.mjs');
  fs.writeFileSync(file, body);
  return file;
};
const echo = script("process.once('message', (m) => process.send({ got: m }, () => process.exit(0)));");
const silent = script("process.once('message', () => setInterval(() => {}, 1000));");
const crash = script("process.once('message', () => process.exit(3));");
const limits = { memoryMb: 64, timeMs: 10_000 };

describe('runJob', () => {
  test('answered: the reply to the message sent', async () => {
    assert.deepEqual(await runJob(echo, { n: 1, big: 2n }, limits), { kind: 'answered', reply: { got: { n: 1, big: 2n } } });
  });

  test('late: past its deadline it is killed', async () => {
    assert.deepEqual(await runJob(silent, {}, { ...limits, timeMs: 200 }), { kind: 'late' });
  });

  test('exited: it ended without answering, and how', async () => {
    assert.deepEqual(await runJob(crash, {}, limits), { kind: 'exited', outOfMemory: false, how: 'code 3' });
  });

  test("stopped: the caller's signal kills it, whether it came before the start or during the work", async () => {
    const before = new AbortController();
    before.abort();
    assert.deepEqual(await runJob(silent, {}, { ...limits, signal: before.signal }), { kind: 'stopped' });
    const during = new AbortController();
    const running = runJob(silent, {}, { ...limits, signal: during.signal });
    during.abort();
    assert.deepEqual(await running, { kind: 'stopped' });
  });
});
