import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { test } from 'node:test';
import { importsOf, violations } from './boundaries';

function sourceTree(): Map<string, string> {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.tsx', '*.mjs'], {
    encoding: 'utf8',
  });
  const files = new Map<string, string>();
  for (const file of listed.split('\n').filter(Boolean)) if (fs.existsSync(file)) files.set(file, fs.readFileSync(file, 'utf8'));
  return files;
}

test('the tree keeps the import rules between the browser, the contract, the server and the database', () => {
  const tree = sourceTree();
  assert.ok(tree.size > 100, 'the whole tree was read');
  assert.deepEqual(violations(tree), []);
});

test('imports are read from static, type-only, side-effect and dynamic imports, by alias and relative path', () => {
  const src = [
    "import { a } from '@/lib/engine/turn';",
    "import type { B } from '../turns/registry';",
    "import './side-effect';",
    "const c = await import('@/db/store');",
    "import { z } from 'zod';",
  ].join('\n');
  assert.deepEqual(importsOf('lib/client/api.ts', src), ['lib/engine/turn', 'lib/turns/registry', 'lib/client/side-effect', 'db/store']);
});

test('each rule catches the import it forbids', () => {
  const found = violations(
    new Map([
      ['components/chat/X.tsx', "import { runTurn } from '@/lib/engine/turn';"],
      ['lib/client/y.ts', "import type { Store } from '../../db/store';"],
      ['lib/contract/z.ts', "import { api } from '@/lib/client/api';"],
      ['lib/turns/w.ts', "import { applyEvent } from '@/lib/client/turn-state';"],
      ['app/api/things/route.ts', "import { decodeCursor } from '@/db/queries/threads';"],
      // allowed: the browser and the server both import the contract; tests may reach anything
      ['components/chat/ok.tsx', "import type { TurnEvent } from '@/lib/contract/events';"],
      ['lib/turns/ok.ts', "import { applyEvent } from '@/lib/contract/turn-state';"],
      ['lib/turns/ok.test.ts', "import { api } from '@/lib/client/api';"],
      ['app/api/things/harness.ts', "import { openDb } from '@/db/client';"],
    ]),
  );
  assert.deepEqual(
    found.map((v) => v.file),
    ['components/chat/X.tsx', 'lib/client/y.ts', 'lib/contract/z.ts', 'lib/turns/w.ts', 'app/api/things/route.ts'],
  );
});
