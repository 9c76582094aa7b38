import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { z } from 'zod';
import { closeAll, follow, hasWords, twoProcesses, untilLeased, type Closing } from '@/lib/dev/testing/processes';
import { decideBy, reply, scriptedModel, toolCall } from '@/lib/dev/testing/scripted-model';
import { TEST_STORE_URL } from '@/lib/dev/testing/store';
import type { Tool } from '@/lib/tools/types';
import type { StreamedEvent } from './supervisor';

/**
 * Two Hearth processes on one PostgreSQL library, each with its own connections and its own
 * LISTEN connection, as two `next start` processes have them: a turn run by one is streamed,
 * stopped and answered through the other, taken over when its process stops renewing its lease,
 * and handed over when its process stops. (The process test in e2e/contract/processes.test.ts
 * does the same with two servers and a SIGKILL.) PostgreSQL only: SQLite's file is one process's.
 */

const LEASE_MS = 1000;
const skip = TEST_STORE_URL
  ? false
  : 'several processes share a PostgreSQL database (npm test runs this on PostgreSQL when TEST_DATABASE_URL is set)';

/** Two processes for one test, closed after it: each test's processes are gone before the next begins. */
function twoProcessesFor(t: TestContext, opts: Parameters<typeof twoProcesses>[3] = {}) {
  const closing: Closing = [];
  t.after(() => closeAll(closing));
  return twoProcesses(TEST_STORE_URL!, LEASE_MS, closing, opts);
}

/** Every event number once, in order: nothing doubled, nothing skipped. */
function assertOnceEach(events: StreamedEvent[]) {
  const seqs = events.map((e) => e.seq);
  assert.deepEqual(
    seqs,
    [...new Set(seqs)].sort((a, b) => a - b),
    'each event once, in order',
  );
}

describe('several processes on one database', { skip }, () => {
  test('a turn run by one process streams live through the other, to its end', async (t) => {
    const { first, second, release } = await twoProcessesFor(t);
    const { turnId, assistantMessageId } = await first.supervisor.start({ threadId: 'th', content: 'Explain closures.' });
    const through = follow(second.supervisor, turnId);
    // Heard through the second while the first still runs it: live, not after the fact.
    await through.until(hasWords('Half '));
    assert.equal(first.supervisor.isLive(turnId), true);
    release();
    await through.done;
    assert.equal(through.heard.at(-1)?.type, 'done');
    assertOnceEach(through.heard);
    const answer = await second.store.getMessage({ id: assistantMessageId });
    assert.deepEqual([answer?.content, answer?.status], ['The whole answer.', 'complete']);
  });

  test('stop asked through the other process stops the turn where it runs', async (t) => {
    const { first, second } = await twoProcessesFor(t);
    const { turnId } = await first.supervisor.start({ threadId: 'th', content: 'Explain closures.' });
    const through = follow(second.supervisor, turnId);
    await through.until(hasWords('Half '));
    assert.equal(await second.supervisor.cancel(turnId), true);
    await through.done;
    const ending = through.heard.at(-1);
    assert.deepEqual([ending?.type, ending?.type === 'error' && ending.code], ['error', 'cancelled']);
    assert.equal((await second.store.getTurn({ id: turnId }))?.status, 'cancelled');
    assert.equal(await second.supervisor.cancel(turnId), false, 'a finished turn is stopped nowhere');
  });

  test('an approval answered through the other process reaches the turn where it runs; an unknown or answered call is refused', async (t) => {
    const sent: string[] = [];
    // The tool runs once the call is allowed, and finishes when the test says: the turn is still under way meanwhile.
    let finish = () => undefined as void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const note: Tool = {
      name: 'send_note',
      description: 'Sends a note to the household.',
      params: z.object({ text: z.string() }),
      cost: 1,
      timeoutMs: 1000,
      approval: 'ask',
      source: 'notes',
      run: async ({ text }: { text: string }) => {
        sent.push(text);
        await finished;
        return { sent: true };
      },
    };
    const { first, second } = await twoProcessesFor(t, {
      tools: [note],
      firstModel: scriptedModel({ rounds: [toolCall('send_note', { text: 'Dinner at six.' }), reply('Sent.')], decide: decideBy({}) }),
    });
    const { turnId, assistantMessageId } = await first.supervisor.start({ threadId: 'th', content: 'Tell everyone dinner is at six.' });
    const through = follow(second.supervisor, turnId);
    await through.until((events) => events.some((e) => e.type === 'approval_needed'));
    const asked = through.heard.find((e) => e.type === 'approval_needed');
    const callId = asked?.type === 'approval_needed' ? asked.callId : '';
    assert.equal(
      await second.supervisor.answerApproval({ threadId: 'th', callId: 'no-such-call', answer: 'allow' }),
      false,
      'no call waits under that id',
    );
    assert.deepEqual(sent, []);
    assert.equal(await second.supervisor.answerApproval({ threadId: 'th', callId, answer: 'allow' }), true);
    // The answer is stored (the page heard it) and the turn goes on: a second answer is refused.
    await through.until((events) => events.some((e) => e.type === 'approval'));
    assert.equal(await second.supervisor.answerApproval({ threadId: 'th', callId, answer: 'deny' }), false, 'answered already');
    finish();
    await through.done;
    assert.deepEqual(sent, ['Dinner at six.'], 'run once, where the turn runs');
    const answer = through.heard.find((e) => e.type === 'approval');
    assert.deepEqual(answer?.type === 'approval' && [answer.callId, answer.allow], [callId, true]);
    assert.equal((await second.store.getMessage({ id: assistantMessageId }))?.content, 'Sent.');
  });

  test('a process that dies mid-turn: another takes the turn over once its lease lapses, nothing doubled', async (t) => {
    let dead = false;
    const { first, second, clock } = await twoProcessesFor(t, { firstFrozen: () => dead });
    const { turnId, assistantMessageId } = await first.supervisor.start({ threadId: 'th', content: 'Explain closures.' });
    const through = follow(second.supervisor, turnId);
    await through.until(hasWords('Half '));
    // Its lease is taken (the claim lands just after the turn starts).
    await untilLeased(second.store, turnId);
    dead = true;
    first.supervisor.close();
    assert.deepEqual(await second.supervisor.takeOver(), [], 'not before its lease lapses');
    clock.t += LEASE_MS + 1;
    assert.deepEqual(await second.supervisor.takeOver(), [turnId]);
    await through.done;
    assertOnceEach(through.heard);
    assert.deepEqual(
      through.heard.filter((e) => e.type === 'status' && e.stage === 'resumed').length,
      1,
      'the page hears it resumed, once',
    );
    assert.equal(through.heard.at(-1)?.type, 'done');
    assert.equal(through.heard.filter((e) => e.type === 'done').length, 1);
    const answer = await second.store.getMessage({ id: assistantMessageId });
    assert.deepEqual([answer?.content, answer?.status], ['The whole answer.', 'complete']);
    const turn = await second.store.getTurn({ id: turnId });
    assert.equal(turn?.status, 'done');
    assert.equal(turn?.leaseOwner, null, 'an ended turn is no process’s');
  });

  test('a process on a machine whose clock is a minute behind keeps its turn: leases are in the database’s time', async (t) => {
    const { first, second, clock, release } = await twoProcessesFor(t, { firstSkewMs: -60_000 });
    assert.ok(
      Math.abs(first.signals.clockOffsetMs() - 60_000) < 1000,
      `the first sees its clock behind (${first.signals.clockOffsetMs()} ms)`,
    );
    const { turnId, assistantMessageId } = await first.supervisor.start({ threadId: 'th', content: 'Explain closures.' });
    const through = follow(second.supervisor, turnId);
    await through.until(hasWords('Half '));
    await untilLeased(second.store, turnId);
    // Stamped in the database's time: had it been its own, the second would take it as one no process leased.
    assert.ok(Math.abs(Number((await second.store.getTurn({ id: turnId }))?.createdAt) - clock.t) < 1000, 'created in the database’s time');
    // In its own clock's time its lease ended a minute ago: the second would take a running turn.
    assert.deepEqual(await second.supervisor.takeOver(), [], 'its lease has not lapsed');
    clock.t += LEASE_MS / 2;
    assert.deepEqual(await second.supervisor.takeOver(), [], 'nor half a lease later');
    release();
    await through.done;
    assertOnceEach(through.heard);
    assert.equal(through.heard.filter((e) => e.type === 'status' && e.stage === 'resumed').length, 0, 'never taken over');
    assert.equal((await second.store.getMessage({ id: assistantMessageId }))?.status, 'complete');
  });

  test('a process whose connection is gone (killed): its turn is taken over at the next look, not a lease later', async (t) => {
    let dead = false;
    const { first, second } = await twoProcessesFor(t, { firstFrozen: () => dead });
    const { turnId, assistantMessageId } = await first.supervisor.start({ threadId: 'th', content: 'Explain closures.' });
    const through = follow(second.supervisor, turnId);
    await through.until(hasWords('Half '));
    await untilLeased(second.store, turnId);
    dead = true;
    first.supervisor.close();
    // A killed process's connections close with it: the database no longer lists it.
    await first.signals.close();
    // Missing from one look could be a connection being made again: from two in a row, it is gone.
    assert.deepEqual(await second.supervisor.takeOver(), [], 'not on the first look');
    assert.deepEqual(await second.supervisor.takeOver(), [turnId]);
    await through.done;
    assertOnceEach(through.heard);
    assert.equal((await second.store.getMessage({ id: assistantMessageId }))?.status, 'complete');
  });

  test('a process stopped with SIGTERM hands its turns over at once', async (t) => {
    const { first, second } = await twoProcessesFor(t);
    const { turnId, assistantMessageId } = await first.supervisor.start({ threadId: 'th', content: 'Explain closures.' });
    const through = follow(second.supervisor, turnId);
    await through.until(hasWords('Half '));
    // No lease has lapsed: the second takes it because the first gave it up and said so.
    const { handedOver, stopped } = await first.supervisor.handOver();
    assert.deepEqual([handedOver, stopped], [[turnId], []]);
    await through.done;
    assertOnceEach(through.heard);
    assert.equal(through.heard.at(-1)?.type, 'done');
    const answer = await second.store.getMessage({ id: assistantMessageId });
    assert.deepEqual([answer?.content, answer?.status], ['The whole answer.', 'complete']);
    assert.equal(first.supervisor.isLive(turnId), false);
  });

  test('with no other process running, SIGTERM stops the turns as one process does', async (t) => {
    const { first, second } = await twoProcessesFor(t);
    await second.signals.close();
    const { turnId } = await first.supervisor.start({ threadId: 'th', content: 'Explain closures.' });
    const here = follow(first.supervisor, turnId);
    await here.until(hasWords('Half '));
    const { handedOver, stopped } = await first.supervisor.handOver();
    assert.deepEqual([handedOver, stopped], [[], [turnId]]);
    assert.equal((await first.store.getTurn({ id: turnId }))?.status, 'interrupted');
  });
});
