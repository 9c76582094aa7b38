import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '@/db/client';
import { createStore } from '@/db/store';
import { parseConfig } from '@/lib/shared/config';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { effectiveSettings, patchRows, settingsFromConfig, settingsPatch } from './settings-values';

const config = parseConfig({
  LLAMA_URL: 'http://a:8080/v1, http://b:8080/v1/',
  LLAMA_MODEL: 'qwen',
  HEARTH_TIMEZONE: 'Europe/Paris',
  SEARXNG_URL: 'http://127.0.0.1:8888',
  TURN_FUEL: '3000',
});

test('the environment gives every default', () => {
  const d = settingsFromConfig(config);
  assert.deepEqual(d.modelServers, [
    { url: 'http://a:8080/v1', model: 'qwen' },
    { url: 'http://b:8080/v1', model: 'qwen' },
  ]);
  assert.deepEqual(
    [d.modelSlots, d.assistantName, d.timezone, d.location, d.searxngUrl, d.turnFuel, d.maxRounds, d.turnModelCalls],
    [null, 'Hearth', 'Europe/Paris', '', 'http://127.0.0.1:8888', 3000, 6, 16],
  );
  assert.deepEqual([d.userName, d.defaultInstructions, d.disabledTools], ['', '', []]);
});

test('stored values win one by one; one that fails its check falls back alone, and is not reported as changed', () => {
  const defaults = settingsFromConfig(config);
  const { settings, overridden } = effectiveSettings(defaults, {
    assistantName: 'Ember',
    timezone: 'Nowhere/Else',
    maxRounds: 99,
    searxngUrl: '',
    unknown: 1,
  });
  assert.equal(settings.assistantName, 'Ember');
  assert.equal(settings.timezone, 'Europe/Paris');
  assert.equal(settings.maxRounds, 6);
  assert.equal(settings.searxngUrl, '', 'an empty address (web search off) is a value');
  assert.deepEqual(overridden, ['assistantName', 'searxngUrl']);
});

test('a patch: URLs lose their trailing slash, tools are listed once, null means back to the default', () => {
  const p = settingsPatch.parse({
    modelServers: [{ url: ' http://c:1/v1/ ' }],
    disabledTools: ['now', 'now', 'calculator'],
    location: null,
  });
  assert.deepEqual(p.modelServers, [{ url: 'http://c:1/v1', model: '' }]);
  assert.deepEqual(p.disabledTools, ['now', 'calculator']);
  assert.deepEqual(patchRows(p), {
    set: { modelServers: [{ url: 'http://c:1/v1', model: '' }], disabledTools: ['now', 'calculator'] },
    reset: ['location'],
  });
  assert.equal(settingsPatch.safeParse({ searxngUrl: 'javascript:alert(1)' }).success, false);
  assert.equal(settingsPatch.safeParse({ modelSlots: 0 }).success, false);
  assert.equal(settingsPatch.safeParse({ modelSlots: null }).success, true);
});

test('stored in SQLite: set and reset in one write; a row that is not JSON is ignored', async () => {
  const db = openDatabase(path.join(makeTempDir('hearth-settings'), 'h.db'));
  const store = createStore(db);
  await store.writeSettings({ set: { assistantName: 'Ember', turnFuel: 500 }, reset: [], now: 1 });
  await store.writeSettings({ set: { assistantName: 'Ash' }, reset: ['turnFuel'], now: 2 });
  assert.deepEqual(await store.storedSettings(), { assistantName: 'Ash' });
  db.$client.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('location', '{not json', 3)").run();
  assert.deepEqual(await store.storedSettings(), { assistantName: 'Ash' });
  assert.deepEqual(db.$client.prepare("SELECT updated_at FROM settings WHERE key = 'assistantName'").get(), { updated_at: 2 });
  db.$client.close();
});
