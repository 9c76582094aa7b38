import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { errorResponse, parseInput } from '@/lib/http/handle';
import { serverConfigOrThrow } from '@/lib/tools/mcp/config';
import { SETTING_LABELS, settingLabel } from './setting-labels';
import { settingsPatch } from './settings-values';

async function refusal(run: () => unknown) {
  try {
    run();
  } catch (err) {
    const res = errorResponse(err);
    return { status: res.status, ...((await res.json()) as { error: { code: string; message: string; field?: string } }).error };
  }
  assert.fail('it was accepted');
}

test('a refused setting is named as the page labels it, in words, with its field for the page to mark (issue 46)', async () => {
  assert.deepEqual(await refusal(() => parseInput(settingsPatch, { turnFuel: 50 }, settingLabel)), {
    status: 400,
    code: 'bad_request',
    message: 'Fuel: must be at least 100.',
    field: 'turnFuel',
  });
  assert.deepEqual(
    await refusal(() => parseInput(settingsPatch, { modelServers: [{ url: 'http://a/v1' }, { url: 'gpu:8080' }] }, settingLabel)),
    {
      status: 400,
      code: 'bad_request',
      message: 'Server 2 URL: must be an http(s) URL.',
      field: 'modelServers.1.url',
    },
  );
  const rounds = await refusal(() => parseInput(settingsPatch, { maxRounds: 2.5 }, settingLabel));
  assert.equal(rounds.message, 'Rounds: must be a whole number.');
});

test('a tool server entry with neither a command nor a URL says what to give, and marks the entry (issue 46)', async () => {
  const neither = await refusal(() => serverConfigOrThrow({ args: ['x'] }));
  assert.equal(neither.message, 'The entry: give a "command" that starts the server (stdio) or the "url" it answers at (HTTP).');
  assert.equal(neither.field, 'server');
  const both = await refusal(() => serverConfigOrThrow({ command: 'npx', url: 'http://127.0.0.1:9000/mcp' }));
  assert.equal(both.message, 'The entry: give a "command" or a "url", not both.');
  const url = await refusal(() => serverConfigOrThrow({ url: 'ftp://x' }));
  assert.equal(url.message, 'The entry\'s "url": must be an http(s) URL.');
});

test('the labels messages use are the Settings page’s own', () => {
  // The page is one file per section (components/settings/sections).
  const sections = path.resolve(import.meta.dirname, '../../components/settings/sections');
  const page = fs
    .readdirSync(sections)
    .map((f) => fs.readFileSync(path.join(sections, f), 'utf8'))
    .join('\n');
  const onPage = [...page.matchAll(/field\(\s*'(\w+)',\s*'([^']+)'/g)].map(([, key, label]) => [key, label]);
  assert.ok(onPage.length >= 10, 'the page’s fields were found');
  for (const [key, label] of onPage) assert.equal(SETTING_LABELS[key as keyof typeof SETTING_LABELS], label, key);
  assert.match(page, /aria-label=\{`Server \$\{i \+ 1\} URL`\}/, 'the server URL inputs are labelled as settingLabel says');
});
