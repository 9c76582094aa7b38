import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parseConfig } from '@/lib/shared/config';
import { freshStore } from '@/lib/dev/testing/store';
import { createToolSet } from './toolset';
import type { MemoryBook } from './types';

/**
 * What the model is told of every tool, word for word: each name, description and parameter
 * (its type, limits and description), as a request sends them. This is the tools' contract with
 * the model, so a change to it should be seen in review: the expected text is kept in
 * tool-schemas.json. After a deliberate change, `UPDATE_TOOL_SCHEMAS=1 npm test` rewrites it.
 */

const expectedFile = path.join(import.meta.dirname, 'tool-schemas.json');
const memory: MemoryBook = {
  list: () => [],
  add: (text) => ({ id: 'm', text }),
  edit: (id, text) => ({ id, text }),
  forget: () => undefined,
};

test('every tool as the model reads it', () => {
  const set = createToolSet({ config: parseConfig({ SEARXNG_URL: 'http://127.0.0.1:8888' }), store: freshStore(), now: () => 0, memory });
  const actual = `${JSON.stringify(set.registry.schemas(), null, 2)}\n`;
  if (process.env.UPDATE_TOOL_SCHEMAS === '1') fs.writeFileSync(expectedFile, actual);
  assert.equal(
    actual,
    fs.readFileSync(expectedFile, 'utf8'),
    'the tools as sent changed; if that was meant, run UPDATE_TOOL_SCHEMAS=1 npm test and review the diff',
  );
});
