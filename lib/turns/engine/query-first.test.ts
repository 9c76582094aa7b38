import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { buildTable, type AttachedTableRef, type TableMeta } from '@/lib/data/tables/tables';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { reply } from '@/lib/dev/testing/scripted-model';
import { allText, runScriptedTurn as run, schemaKeys } from '@/lib/dev/testing/turn-harness';
import { mayAskFigure } from './query-first';

/**
 * Program-decided figures over an attached table: the free check, the decide step, the plan
 * the model writes as data, the query the program runs, and what the answering round is told;
 * and each way the path steps aside (not a figure, a plan out of shape, a query refused).
 */

const ID = '11111111-2222-4333-8444-555555555555';
let table: AttachedTableRef;
let db: string;
before(async () => {
  const dir = makeTempDir('hearth-query-first');
  fs.writeFileSync(path.join(dir, 's.csv'), 'Category,Amount\ngroceries,12.10\nrent,800.00\ngroceries,7.95\n');
  db = path.join(dir, 's.db');
  const meta: TableMeta = await buildTable({ source: path.join(dir, 's.csv'), format: 'csv', name: 'statement.csv', db });
  table = { attachmentId: ID, name: 'statement.csv', meta };
});
const deps = () => ({
  attachmentTable: async (id: string) => (id === ID ? { name: 'statement.csv', db, meta: table.meta, queryMs: 5_000 } : undefined),
});
const QUESTION = 'How much did I spend on groceries?';

test('the free check: a table on the branch and a figure word', () => {
  assert.equal(mayAskFigure(QUESTION, [table]), true);
  assert.equal(mayAskFigure('How many rows are there?', [table]), true);
  assert.equal(mayAskFigure('What is this file about?', [table]), false);
  assert.equal(mayAskFigure(QUESTION, []), false);
});

describe('a figure from an attached table', () => {
  test('the decide step says yes, the model writes only the query, the program runs it, and the round is told the exact result', async () => {
    const { events, model, outcome } = await run({
      question: QUESTION,
      research: false,
      tables: [table],
      toolDeps: deps(),
      decide: {
        asks_figure: { asks_figure: true },
        sql: { attachment_id: ID, sql: "SELECT sum(Amount) FROM data WHERE Category = 'groceries'" },
      },
      rounds: [reply('You spent 20.05 on groceries.')],
    });
    assert.equal(outcome.status, 'done');
    const plan = model.requests.find((r) => r.jsonSchema && schemaKeys(r).includes('sql'))!;
    assert.match(allText(plan), /table data: 3 rows; columns Category \(text\), Amount \(decimal, 2 places\)/);
    assert.deepEqual((plan.jsonSchema as { properties: { attachment_id: { enum: string[] } } }).properties.attachment_id.enum, [ID]);
    const result = events.find((e) => e.type === 'tool_result');
    assert.ok(result && result.type === 'tool_result' && result.ok);
    assert.deepEqual((result.result as { rows: unknown[][] }).rows, [[20.05]]);
    assert.match(
      allText(model.roundRequests[0]),
      /\[Hearth\] The exact result, computed by the program from statement\.csv with SELECT sum\(Amount\) FROM data WHERE Category = 'groceries', is:\nsum\(Amount\) = 20\.05\n/,
    );
  });

  test('not a figure: no plan, no query; the round has the tools as usual', async () => {
    const { events, model } = await run({
      question: 'How much of this file is about rent?',
      research: false,
      tables: [table],
      toolDeps: deps(),
      decide: { asks_figure: { asks_figure: false } },
      rounds: [reply('Some of it.')],
    });
    assert.ok(model.requests.some((r) => r.jsonSchema && schemaKeys(r).includes('asks_figure')));
    assert.ok(!model.requests.some((r) => r.jsonSchema && schemaKeys(r).includes('sql')));
    assert.ok(!events.some((e) => e.type === 'tool_call'));
  });

  test('a plan out of shape is passed over (said in the diagnostics); a refused query is shown failed and the round is not told a result', async () => {
    const shapeless = await run({
      question: QUESTION,
      research: false,
      tables: [table],
      toolDeps: deps(),
      decide: { asks_figure: { asks_figure: true }, sql: { attachment_id: 'someone-else', sql: 'SELECT 1' } },
      rounds: [reply('About 20.')],
    });
    assert.ok(shapeless.outcome.diagnostics.some((d) => /table query skipped: the query plan was not in the expected shape/.test(d)));
    assert.ok(!shapeless.events.some((e) => e.type === 'tool_call'));
    const refused = await run({
      question: QUESTION,
      research: false,
      tables: [table],
      toolDeps: deps(),
      decide: { asks_figure: { asks_figure: true }, sql: { attachment_id: ID, sql: 'DELETE FROM data' } },
      rounds: [reply('About 20.')],
    });
    const result = refused.events.find((e) => e.type === 'tool_result');
    assert.ok(result && result.type === 'tool_result' && !result.ok);
    assert.match(result.error!, /only a single SELECT query is allowed/);
    assert.doesNotMatch(allText(refused.model.roundRequests[0]), /The exact result/);
    assert.equal(refused.outcome.status, 'done');
  });
});
