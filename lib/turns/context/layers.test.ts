import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ContextRuntime, renderContextBlock, Slot, type ContextLayer } from './layers';

/** The layer runtime on its own: order, the context block's place, and hooks that fail without failing the turn. */

const ctx = { executionId: 'turn-1', threadId: 'thread-1', resourceId: 'me' };

const system = (id: string, text: string, slot: number = Slot.SYSTEM): ContextLayer => ({ id, slot, recall: () => ({ system: text }) });
const history = (...messages: { role: 'user' | 'assistant'; content: string }[]): ContextLayer => ({
  id: 'history',
  slot: Slot.HISTORY,
  recall: () => ({ messages }),
});
const note = (id: string, text: string, slot: number = Slot.RECALLED_MEMORY): ContextLayer => ({
  id,
  slot,
  recall: () => ({ system: text }),
});

test('two layers with one id are refused, naming it', async () => {
  await assert.rejects(ContextRuntime.create([system('same', 'a'), system('same', 'b')], ctx), /two context layers share the id same/);
});

test('layers before the history make one system message, in slot order; without notes the history is untouched', async () => {
  const rt = await ContextRuntime.create(
    [history({ role: 'user', content: 'hi' }), system('late', 'second', Slot.STEERING), system('early', 'first')],
    ctx,
  );
  assert.deepEqual(await rt.view(), [
    { role: 'system', content: 'first\n\nsecond' },
    { role: 'user', content: 'hi' },
  ]);
  assert.equal(rt.contextNotes, null);
  const bare = await ContextRuntime.create([history({ role: 'user', content: 'hi' })], ctx);
  assert.deepEqual(await bare.view(), [{ role: 'user', content: 'hi' }], 'no system layer, no system message');
});

test('notes of the layers after the history go, as one block, at the start of the newest question; with no question they are one', async () => {
  const rt = await ContextRuntime.create(
    [
      system('identity', 'You are Hearth.'),
      history({ role: 'user', content: 'first' }, { role: 'assistant', content: 'answer' }, { role: 'user', content: 'second' }),
      note('memory', 'likes tea'),
      note('decisions', 'checked once', Slot.DECISIONS),
    ],
    ctx,
  );
  const view = await rt.view();
  assert.equal(rt.contextNotes, 'likes tea\n\nchecked once');
  assert.deepEqual(view.slice(1, 3), [
    { role: 'user', content: 'first' },
    { role: 'assistant', content: 'answer' },
  ]);
  assert.deepEqual(view[3], { role: 'user', content: `${renderContextBlock('likes tea\n\nchecked once')}\n\nsecond` });

  const alone = await ContextRuntime.create([history({ role: 'assistant', content: 'hello' }), note('memory', 'likes tea')], ctx);
  assert.deepEqual(await alone.view(), [
    { role: 'assistant', content: 'hello' },
    { role: 'user', content: renderContextBlock('likes tea') },
  ]);
});

test('an init that throws disables its layer (no recall, nothing provided, in forks too); a recall that throws is skipped; both are diagnosed', async () => {
  let recalled = 0;
  const broken: ContextLayer<'broken', number, number> = {
    id: 'broken',
    slot: Slot.SYSTEM,
    init: () => {
      throw new Error('no database');
    },
    recall: () => {
      recalled++;
      return { system: 'never' };
    },
    provides: (n) => n,
  };
  const flaky: ContextLayer = { id: 'flaky', slot: Slot.STEERING, recall: () => Promise.reject(new Error('index gone')) };
  const rt = await ContextRuntime.create([broken, flaky, system('fine', 'still here')] as const, ctx);
  const view = await rt.view();
  assert.deepEqual(view, [{ role: 'system', content: 'still here' }]);
  assert.equal(recalled, 0);
  assert.equal('broken' in rt.context, false);
  assert.deepEqual(rt.diagnostics, [
    { layerId: 'broken', hook: 'init', message: 'no database' },
    { layerId: 'flaky', hook: 'recall', message: 'index gone' },
  ]);
  const child = rt.fork('turn-2');
  await child.view();
  assert.equal(recalled, 0, 'a disabled layer stays disabled in a fork');
});

test('a hook past its timeout is a diagnostic, not a hang', async () => {
  const slow: ContextLayer = { id: 'slow', slot: Slot.SYSTEM, recall: () => new Promise(() => undefined), timeouts: { recall: 5 } };
  const rt = await ContextRuntime.create([slow, system('fine', 'ok', Slot.STEERING)], ctx);
  assert.deepEqual(await rt.view(), [{ role: 'system', content: 'ok' }]);
  assert.deepEqual(rt.diagnostics, [{ layerId: 'slow', hook: 'recall', message: 'timed out after 5 ms' }]);
});
