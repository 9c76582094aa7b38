import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signalBus } from '@/lib/dev/testing/signal-bus';
import { freshStore } from '@/lib/dev/testing/store';
import type { Signals } from '@/lib/contract/cluster-signals';
import { parseConfig } from '@/lib/shared/config';
import { SettingsService, type SettingsLink } from './settings';

/**
 * Several processes on one database each keep the settings in force: a change made through one
 * is read again by the others (told over their signals), so any process serves the same ones.
 */

const config = parseConfig({ LLAMA_URL: 'http://127.0.0.1:1/v1', DATA_DIR: '/tmp/hearth-settings-test' });

const linkOver = (signals: Signals): SettingsLink => ({
  send: () => signals.send({ kind: 'settings', library: 'lib' }),
  listen: (heard) => signals.listen('lib', (s) => (s.kind === 'settings' || s.kind === 'resync') && heard()),
});

// A change never heard would be waited for forever: a time limit makes that a failure.
test('a change through one process is in force in the other, which tells no one again', { timeout: 10_000 }, async () => {
  const store = freshStore();
  const bus = signalBus();
  const [a, b] = [bus.join('A'), bus.join('B')];
  const sent: string[] = [];
  const counted = (signals: Signals, name: string): Signals => ({
    ...signals,
    send: (signal) => (sent.push(`${name} ${signal.kind}`), signals.send(signal)),
  });
  const first = await SettingsService.open(config, store, () => undefined, linkOver(counted(a, 'A')));
  let heard: (changed: string[]) => void = () => undefined;
  const changedInSecond = new Promise<string[]>((resolve) => (heard = resolve));
  const second = await SettingsService.open(config, store, (changed) => heard(changed), linkOver(counted(b, 'B')));
  await first.update({ assistantName: 'Ember' }, 1);
  assert.deepEqual(await changedInSecond, ['assistantName']);
  assert.equal(second.current().assistantName, 'Ember');
  assert.deepEqual(sent, ['A settings'], 'the second read it again without saying so');
  // Nothing changed: nothing said.
  await first.update({ assistantName: 'Ember' }, 2);
  assert.deepEqual(sent, ['A settings']);
});

test('after the link to the others was lost and is back, a process reads its settings again', { timeout: 10_000 }, async () => {
  const store = freshStore();
  const bus = signalBus();
  let changed: string[] = [];
  const second = await SettingsService.open(config, store, (keys) => (changed = keys), linkOver(bus.join('B')));
  // Written by a process whose word was lost.
  const other = await SettingsService.open(config, store);
  await other.update({ assistantName: 'Ember' }, 1);
  assert.equal(second.current().assistantName, config.HEARTH_ASSISTANT_NAME);
  bus.tell('B', { kind: 'resync', library: 'lib' });
  await new Promise<void>((resolve) => {
    const check = () => (second.current().assistantName === 'Ember' ? resolve() : setImmediate(check));
    check();
  });
  assert.deepEqual(changed, ['assistantName']);
});
