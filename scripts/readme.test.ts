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

/** The README is a front page (issue 47): well under 300 lines, with the manual in docs/ one link away, every page of it linked. */
test('the README is a front page and links every page of the manual in docs/', () => {
  const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../README.md'), 'utf8');
  assert.ok(readme.split('\n').length < 300, `the README has ${readme.split('\n').length} lines`);
  const docs = path.resolve(import.meta.dirname, '../docs');
  const manual = fs.readFileSync(path.join(docs, 'README.md'), 'utf8');
  for (const page of fs.readdirSync(docs).filter((f) => f.endsWith('.md') && f !== 'README.md')) {
    assert.ok(manual.includes(`](${page}`), `docs/README.md links ${page}`);
    assert.ok(fs.readFileSync(path.join(docs, page), 'utf8').includes('](README.md'), `${page} links back to the manual`);
  }
  for (const page of ['using', 'what-a-turn-does', 'models', 'tools', 'files', 'library', 'network', 'configuration', 'api']) {
    assert.ok(readme.includes(`](docs/${page}.md)`), `the README links docs/${page}.md`);
  }
});
