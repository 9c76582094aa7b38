import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import type { ClusterSignal, Signals } from '@/lib/contract/cluster-signals';
import { openPgSignals } from './signals';
import { skipWithoutPostgres, withTestDatabase } from './testing';

/**
 * The signals between Hearth processes on PostgreSQL (LISTEN/NOTIFY): what one sends the other
 * hears, in order, events coalesced to their latest number; what is not Hearth's is ignored; a
 * lost connection is made again and followers told to read again; a process without its
 * connection cannot say who is alive.
 */

/** The next signal `listen` hears that `wanted` accepts. */
function nextHeard(listen: (handler: (s: ClusterSignal) => void) => () => void, wanted: (s: ClusterSignal) => boolean = () => true) {
  return new Promise<ClusterSignal>((resolve) => {
    const stop = listen((s) => {
      if (!wanted(s)) return;
      stop();
      resolve(s);
    });
  });
}

/** Two processes' signals on a new database, closed after `run`. */
function twoProcesses(run: (a: Signals, b: Signals, url: string) => Promise<void>) {
  return withTestDatabase(async (url) => {
    const [a, b] = [await openPgSignals(url, { log: () => undefined }), await openPgSignals(url, { log: () => undefined })];
    // The listening connections hold no process open: while the test waits for one, this does.
    const keepAlive = setInterval(() => undefined, 60_000);
    try {
      await run(a, b, url);
    } finally {
      clearInterval(keepAlive);
      await a.close();
      await b.close();
    }
  });
}

/**
 * Ends a process's signal connection while the process is busy (this call blocks it): when it
 * next sends, it has not yet heard that its connection is gone, so the send itself fails.
 */
function endConnectionWhileBusy(url: string, of: Signals) {
  execFileSync(process.execPath, [
    '-e',
    `const pg = require('pg');
     (async () => {
       const admin = new pg.Client({ connectionString: process.argv[1] });
       await admin.connect();
       const name = process.argv[2];
       await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name]);
       while ((await admin.query('SELECT 1 FROM pg_stat_activity WHERE application_name = $1', [name])).rowCount) {}
       await admin.end();
     })();`,
    url,
    `hearth-process ${of.process}`,
  ]);
}

describe('signals between processes', { skip: skipWithoutPostgres }, () => {
  test('one hears what another sends for its library, not its own or another library’s, and not what is not Hearth’s', () =>
    twoProcesses(async (a, b, url) => {
      const heardByA: ClusterSignal[] = [];
      a.listen('lib', (s) => heardByA.push(s));
      const heard: ClusterSignal[] = [];
      const done = nextHeard(
        (h) => b.listen('lib', (s) => (heard.push(s), h(s))),
        (s) => s.kind === 'handover',
      );
      // Not Hearth's: anyone who may connect may NOTIFY on the channel.
      const stranger = new pg.Client({ connectionString: url });
      await stranger.connect();
      await stranger.query(`SELECT pg_notify('hearth_signals', $1)`, ['{"from":"x","signal":{"kind":"cancel","library":"lib"}}']);
      await stranger.query(`SELECT pg_notify('hearth_signals', 'not json')`);
      await stranger.end();
      a.send({ kind: 'cancel', library: 'other', turnId: 't0' });
      a.send({ kind: 'cancel', library: 'lib', turnId: 't1' });
      a.send({ kind: 'handover', library: 'lib' });
      await done;
      assert.deepEqual(heard, [
        { kind: 'cancel', library: 'lib', turnId: 't1' },
        { kind: 'handover', library: 'lib' },
      ]);
      assert.deepEqual(heardByA, [], 'a process does not hear itself');
      assert.deepEqual((await a.livingProcesses()).sort(), [a.process, b.process].sort());
    }));

  test('a lost connection is made again: followers are told to read again, and signals flow as before', () =>
    twoProcesses(async (a, b, url) => {
      const resynced = nextHeard(
        (h) => b.listen('lib', h),
        (s) => s.kind === 'resync',
      );
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [
        `hearth-process ${b.process}`,
      ]);
      await admin.end();
      assert.deepEqual(await resynced, { kind: 'resync', library: 'lib' });
      const heard = nextHeard(
        (h) => b.listen('lib', h),
        (s) => s.kind === 'event',
      );
      a.send({ kind: 'event', library: 'lib', turnId: 't', seq: 1 });
      assert.deepEqual(await heard, { kind: 'event', library: 'lib', turnId: 't', seq: 1 });
    }));

  // Each is sent just after the connection is lost; a signal lost would be waited for forever: a time limit makes that a failure.
  for (const { name, signal, closing } of [
    {
      name: 'a signal sent on a connection that was lost goes out once it is back: a stop is never dropped',
      signal: { kind: 'cancel', library: 'lib', turnId: 't' } as const,
      closing: false,
    },
    {
      name: 'a process stopping as its connection is lost still says what is left (a hand-over’s word)',
      signal: { kind: 'handover', library: 'lib' } as const,
      closing: true,
    },
  ])
    test(name, { timeout: 30_000 }, () =>
      twoProcesses(async (a, b, url) => {
        const heard = nextHeard(
          (h) => b.listen('lib', h),
          (s) => s.kind === signal.kind,
        );
        endConnectionWhileBusy(url, a);
        a.send(signal);
        if (closing) await a.close();
        assert.deepEqual(await heard, signal);
      }),
    );

  test('without its own connection a process cannot say who is alive (so it takes nothing over)', () =>
    withTestDatabase(async (url) => {
      const a = await openPgSignals(url, { log: () => undefined });
      await a.close();
      await assert.rejects(a.livingProcesses(), /connection to the other Hearth processes is down/);
    }));

  test('the database’s clock is read against this process’s: an hour behind is seen, a right one is not', () =>
    withTestDatabase(async (url) => {
      const right = await openPgSignals(url, { log: () => undefined });
      const behind = await openPgSignals(url, { log: () => undefined, localClock: () => Date.now() - 3_600_000 });
      try {
        assert.equal(right.clockOffsetMs(), 0);
        assert.ok(Math.abs(behind.clockOffsetMs() - 3_600_000) < 1000, `${behind.clockOffsetMs()} ms`);
      } finally {
        await right.close();
        await behind.close();
      }
    }));
});
