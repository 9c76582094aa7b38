import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { LLAMA_SERVER_COMMAND } from './error-text';

test('the banner suggests the llama-server command the README recommends', () => {
  const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Running llama-server for Hearth'));
  const recommended = /```sh\n(llama-server [^\n]+)\n```/.exec(section)?.[1];
  assert.equal(LLAMA_SERVER_COMMAND, recommended);
});
