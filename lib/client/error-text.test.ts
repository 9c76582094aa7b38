import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { LLAMA_SERVER_COMMAND, llamaServerCommand } from './error-text';

test('the banner suggests the llama-server command the README recommends', () => {
  const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Running llama-server for Hearth'));
  const recommended = /```sh\n(llama-server [^\n]+)\n```/.exec(section)?.[1];
  assert.equal(LLAMA_SERVER_COMMAND, recommended);
});

test('the banner suggests the port Hearth is set to reach, and --host for another machine (issue 46)', () => {
  const base = 'llama-server -m your-model.gguf --jinja -c 32768 -np 2 --kv-unified --cache-ram 8192 --metrics';
  assert.equal(llamaServerCommand('http://127.0.0.1:8080/v1'), `${base} --port 8080`);
  assert.equal(llamaServerCommand('http://localhost:9090/v1'), `${base} --port 9090`);
  assert.equal(llamaServerCommand('http://192.168.1.20:8081/v1'), `${base} --host 0.0.0.0 --port 8081`);
  assert.equal(llamaServerCommand('http://gpu-box/v1'), `${base} --host 0.0.0.0 --port 80`);
  assert.equal(llamaServerCommand('not a url'), LLAMA_SERVER_COMMAND);
});
