import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '@/db/client';
import { createStore } from '@/db/store';
import { scriptedModel } from '@/lib/dev/testing/scripted-model';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { parseConfig } from '@/lib/shared/config';
import { buildHearth } from './runtime';

test('a library asked for by many requests at once is opened once: every one of them gets the same', async () => {
  const dataDir = makeTempDir('hearth-open');
  const config = parseConfig({
    LLAMA_URL: 'http://127.0.0.1:9/v1',
    DATA_DIR: dataDir,
    HEARTH_TIMEZONE: 'UTC',
    HEARTH_TITLES: 'first-words',
  });
  const hearth = await buildHearth(config, createStore(openDatabase(path.join(dataDir, 'hearth.db'))), {
    model: scriptedModel({}),
    log: () => undefined,
  });
  const owner = await hearth.auth.owner();
  // Requests arriving at every step of an opening under way, and after it.
  const asked = async (steps: number) => {
    for (let i = 0; i < steps; i++) await Promise.resolve();
    return hearth.as(owner);
  };
  const libraries = await Promise.all(Array.from({ length: 100 }, (_, steps) => asked(steps)));
  assert.equal(new Set(libraries).size, 1);
  assert.equal(hearth.libraries().length, 1);
  for (const library of libraries.slice(0, 1)) library.models.close();
});
