import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { LlamaDouble } from '@/e2e/double/llama-double';
import { memoryGrowth, runLoad, startLoadTarget } from '../load/load';
import type { HearthServer } from './hearth-server';

/**
 * Load against the production server: 50 concurrent clients over 10 threads (HEARTH_LOAD_SECONDS,
 * 10 s here; `npm run bench` runs the full 60 s) against the double streaming its answers. No
 * errors, no event lost or repeated, every streamed answer equal to the stored one, memory steady.
 */

const SECONDS = Number(process.env.HEARTH_LOAD_SECONDS ?? 10);
let double: LlamaDouble;
let hearth: HearthServer;

before(async () => {
  ({ double, hearth } = await startLoadTarget());
});

after(async () => {
  const log = hearth?.stderr() ?? '';
  await hearth?.stop();
  await double?.close();
  assert.doesNotMatch(log, /Something went wrong|⨯|TypeError|ReferenceError/, 'the server logged an unexpected error');
});

test(
  `50 clients over 10 threads for ${SECONDS} s: no errors, no lost or repeated events, steady memory`,
  { timeout: (SECONDS + 120) * 1000 },
  async () => {
    const r = await runLoad({ url: hearth.url, pid: hearth.pid, clients: 50, threads: 10, seconds: SECONDS });
    const memory = memoryGrowth(r.rssMb);
    console.log(
      `load: ${r.asked} turns asked, ${r.followed} followed, ${r.events} events, rss idle ${memory.idle.toFixed(0)} MB, under load ${memory.early.toFixed(0)} -> ${memory.late.toFixed(0)} MB (${r.rssMb.map((m) => m.toFixed(0)).join(' ')})`,
    );
    assert.deepEqual(r.errors.slice(0, 5), [], `${r.errors.length} errors`);
    assert.equal(r.broken, 0, 'streams with a missing or repeated event');
    assert.equal(r.mismatched, 0, 'answers whose streamed text differs from the stored one');
    assert.ok(r.asked >= 10, `turns were answered (${r.asked})`);
    assert.ok(r.followed > 0, 'busy threads were followed');
    assert.ok(memory.ratio < 1.25, `memory steady: ${memory.early.toFixed(0)} MB early, ${memory.late.toFixed(0)} MB late`);
  },
);
