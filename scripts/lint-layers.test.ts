import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ESLint } from 'eslint';

/**
 * The layers' import rules live in eslint.config.mjs (npm run lint holds the whole tree to
 * them in CI); this proves each rule fires on the import it forbids and lets through what it
 * allows, with the project's own configuration.
 */

// The sources below are made up, so no TypeScript project holds them: the type-aware rules (and
// their parser option) are left off here, the import rules are the configuration's own.
const eslint = new ESLint({
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-unused-vars': 'off',
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/await-thenable': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
    },
  },
});

/** The import rule's messages for one file's source, as if it stood at that path. */
async function importErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: file });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const forbidden: [string, string][] = [
  ['components/chat/X.tsx', "import { runTurn } from '@/lib/turns/engine/turn';\nexport const x = runTurn;\n"],
  ['components/chat/hooks/Y.ts', "import type { Lease } from '../../../lib/models/pool';\nexport type Y = Lease;\n"],
  ['components/Z.tsx', "import { createStore } from '@/db/store';\nexport const z = createStore;\n"],
  ['lib/client/y.ts', "import type { Store } from '../../db/store';\nexport type Y = Store;\n"],
  ['lib/client/w.ts', "import type { TurnSupervisor } from '../turns/registry';\nexport type W = TurnSupervisor;\n"],
  ['lib/contract/z.ts', "import { api } from '@/lib/client/api';\nexport const z = api;\n"],
  ['lib/contract/c.ts', "import { parseConfig } from '@/lib/shared/config';\nexport const c = parseConfig;\n"],
  ['lib/contract/n.ts', "import path from 'node:path';\nexport const n = path;\n"],
  ['lib/turns/supervisor/w.ts', "import { sendMessage } from '@/lib/client/api';\nexport const w = sendMessage;\n"],
  ['db/queries/v.ts', "import { Markdown } from '../../components/chat/Markdown';\nexport const v = Markdown;\n"],
  ['app/api/things/route.ts', "import { decodeCursor } from '@/db/queries/threads';\nexport const t = decodeCursor;\n"],
  ['components/chat/C.tsx', "import { getConfig } from '@/lib/shared/config';\nexport const c = getConfig;\n"],
  ['lib/data/files/up.ts', "import type { TurnSupervisor } from '@/lib/turns/supervisor/supervisor';\nexport type U = TurnSupervisor;\n"],
  ['lib/models/m.ts', "import type { FileStore } from '@/lib/data/file-store';\nexport type M = FileStore;\n"],
  ['lib/turns/engine/s.ts', "import { createStore } from '@/db/store';\nexport const s = createStore;\n"],
  ['lib/turns/engine/r.ts', "import { toolset } from '../../tools/toolset';\nexport const r = toolset;\n"],
  ['lib/tools/t.ts', "import { runTurn } from '@/lib/turns/engine/turn';\nexport const t = runTurn;\n"],
  ['lib/shared/s.ts', "import { getRuntime } from '@/lib/services/runtime';\nexport const s = getRuntime;\n"],
  ['lib/services/h.ts', "import { json } from '@/lib/http/handle';\nexport const h = json;\n"],
  ['db/queries/k.ts', "import type { FileStore } from '@/lib/data/file-store';\nexport type K = FileStore;\n"],
];

const allowed: [string, string][] = [
  ['components/chat/ok.tsx', "import type { TurnEvent } from '@/lib/contract/events';\nexport type T = TurnEvent;\n"],
  ['components/chat/hooks/ok.ts', "import { typingIn } from '../Shortcuts';\nexport const t = typingIn;\n"],
  ['lib/turns/supervisor/ok.ts', "import { applyEvent } from '@/lib/contract/turn-state';\nexport const a = applyEvent;\n"],
  [
    'lib/contract/ok.ts',
    "import { z } from 'zod';\nimport type { TurnEvent } from './events';\nexport const s = z.string();\nexport type T = TurnEvent;\n",
  ],
  ['lib/turns/supervisor/ok.test.ts', "import { api } from '@/lib/client/api';\nexport const a = api;\n"],
  ['app/api/things/harness.ts', "import { openDatabase } from '@/db/client';\nexport const o = openDatabase;\n"],
  ['components/chat/w.tsx', "import { toolLabel } from '@/lib/shared/words/tools';\nexport const w = toolLabel;\n"],
  ['lib/turns/engine/ok.ts', "import type { Toolset } from '@/lib/tools/toolset';\nexport type T = Toolset;\n"],
  ['lib/data/files/ok.ts', "import type { Db } from '@/db/client';\nexport type D = Db;\n"],
  ['lib/services/ok.ts', "import type { Lease } from '@/lib/models/pool';\nexport type L = Lease;\n"],
  [
    'db/queries/ok.ts',
    "import type { Sampling } from '../../lib/contract/sampling';\nimport { threads } from '../schema';\nexport type S = Sampling;\nexport const t = threads;\n",
  ],
];

for (const [file, source] of forbidden) {
  test(`the layers' rules refuse ${source.split('\n')[0]} in ${file}`, async () => {
    assert.notDeepEqual(await importErrors(file, source), []);
  });
}

for (const [file, source] of allowed) {
  test(`the layers' rules let ${source.split('\n')[0]} in ${file} through`, async () => {
    assert.deepEqual(await importErrors(file, source), []);
  });
}
