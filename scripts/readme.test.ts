import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

/** What a new user reads on the README's first screen (issue 46): how to start, how to try it without a GPU, what the first start costs. */
test("the README's first screen has the two commands, a way to try Hearth without a GPU, and what the first start costs", () => {
  const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../README.md'), 'utf8');
  const firstScreen = readme.split('\n').slice(0, 45).join('\n');
  assert.match(firstScreen, /^npm ci && npm start\b/m);
  assert.match(firstScreen, /^npm test\b/m);
  assert.match(firstScreen, /No GPU yet\?.*`npm run double`/s);
  assert.match(firstScreen, /`npm run dev:fake`/);
  assert.match(firstScreen, /first start.*builds the app.*minute/is);
  assert.match(firstScreen, /MiB/, 'what the first start costs in disk or memory');
  assert.doesNotMatch(readme, /24 works too: what the installed packages need/, 'the garbled Node sentence');
});
