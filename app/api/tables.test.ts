import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { performance } from 'node:perf_hooks';
import { persona } from '@/e2e/double/persona';
import { startLlamaDouble, type DoubleRequest, type LlamaDouble } from '@/e2e/double/llama-double';
import { readSse } from '@/lib/contract/sse';
import { setRuntime, getRuntime } from '@/lib/services/runtime';
import { xlsxBytes, type Cell } from '@/lib/dev/testing/sheets';
import { makeRuntime, newThread, params, req, rounds, sendWith, upload, type Ev } from './harness';
import * as messagesRoute from './threads/[id]/messages/route';
import * as threadsRoute from './threads/route';

/**
 * Exact answers over attached tables (issue 33) through the route handlers: a CSV statement
 * and an Excel one of 2,000 transactions give their total to the cent (the program plans and
 * runs the query, the answer says the figure), the model's own query_table call gives a
 * grouped count, DROP and ATTACH are refused with the table whole after, and a query that never
 * ends is stopped at its deadline while the server goes on answering.
 */

let double: LlamaDouble;
before(async () => {
  double = await startLlamaDouble();
});
after(async () => {
  setRuntime(undefined);
  await double.close();
});

/** 2,000 transactions in cents (binary floating point would not add them exactly), and their exact total. */
function statement() {
  const rows = Array.from({ length: 2000 }, (_, i) => ({
    day: (i % 28) + 1,
    payee: `Shop ${i}`,
    category: ['groceries', 'rent', 'travel', 'fun'][i % 4],
    cents: ((i * 7919) % 20_011) - 9_000,
  }));
  return { rows, total: rows.reduce((s, r) => s + BigInt(r.cents), 0n) };
}
const money = (cents: bigint) => {
  const a = cents < 0n ? -cents : cents;
  return `${cents < 0n ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
};
const results = (evs: Ev[], name = 'query_table') => evs.flatMap((e) => (e.type === 'tool_result' && e.name === name ? [e] : []));

describe('a total over an attached statement', () => {
  test('a CSV of 2,000 transactions (semicolons, decimal commas, € signs, a BOM): the program plans the query and the answer has the total to the cent', async () => {
    double.setScript(undefined);
    await makeRuntime({ llamaUrl: double.url });
    const { rows, total } = statement();
    const csv = `\uFEFFDatum;Empfänger;Kategorie;Betrag\r\n${rows
      .map((r) => `${String(r.day).padStart(2, '0')}.03.2025;"${r.payee}";${r.category};${money(BigInt(r.cents)).replace('.', ',')} €`)
      .join('\r\n')}\r\n`;
    const file = await upload('konto.csv', csv, 'text/csv');
    assert.equal(file.status, 201, JSON.stringify(file.body));
    const id = await newThread();
    double.requests.length = 0;
    const evs = await sendWith(id, 'How much did I spend in total?', [file.body.id]);
    assert.equal(evs.at(-1)!.type, 'done', JSON.stringify(evs.filter((e) => e.type === 'error')));

    // The decide step said yes, the plan was run as query_table, and its rows are exact.
    const decided = evs.find((e) => e.type === 'decision' && e.record.stepId === 'table_figure');
    assert.ok(decided && decided.type === 'decision');
    const [ran] = results(evs);
    assert.ok(ran && ran.ok, JSON.stringify(ran));
    const result = ran.result as { sql: string; rows: unknown[][]; computed_by: string; file: string };
    assert.equal(result.sql, 'SELECT sum(Betrag) FROM data');
    assert.deepEqual(result.rows, [[Number(money(total))]]);
    assert.equal(result.file, 'konto.csv');
    const answer = evs.find((e) => e.type === 'message');
    assert.ok(answer && answer.type === 'message');
    assert.match(answer.content, new RegExp(`\\*\\*${money(total).replace('.', '\\.')}\\*\\*`), 'the answer states the exact total');

    // The model was told it is a table, with its columns and types, and which tool computes over it.
    const round = rounds(double)[0];
    const told = JSON.stringify(round.messages);
    assert.match(told, /konto\.csv is a table Hearth has read/);
    assert.match(told, /Betrag \(decimal, 2 places\)/);
    assert.match(told, /query_table/);
    assert.match(told, /\[Hearth\] The exact result, computed by the program from konto\.csv/);
  });

  test("an XLSX of 2,000: the model's own query_table calls give a grouped count; DROP and ATTACH are refused and the table is whole after", async () => {
    const { rows, total } = statement();
    const sheet: Cell[][] = [['Date', 'Payee', 'Category', 'Amount']];
    for (const r of rows) sheet.push([new Date(Date.UTC(2025, 2, r.day)), r.payee, r.category, Number(money(BigInt(r.cents)))]);
    await makeRuntime({ llamaUrl: double.url });
    const file = await upload(
      'statement.xlsx',
      await xlsxBytes([{ name: 'March', rows: sheet }]),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    assert.equal(file.status, 201, JSON.stringify(file.body));
    assert.equal(file.body.kind, 'sheet');
    const attachment = file.body.id as string;
    const dbPath = async () => {
      const rt = await getRuntime();
      const { files, store } = await rt.as(await rt.auth.owner());
      const a = (await store.attachmentsOfThreadMessages({ threadId: id })).find((x) => x.id === attachment)!;
      return files.tablePaths(a.sha256).db;
    };
    const queries = [
      'SELECT Category, count(*) AS n FROM data GROUP BY Category ORDER BY Category',
      'DROP TABLE "March"',
      "ATTACH DATABASE '/tmp/hearth-elsewhere.db' AS elsewhere",
      'SELECT count(*), sum(Amount) FROM data',
    ];
    double.setScript((r: DoubleRequest) => {
      // No program-decided query here: the model calls the tool itself.
      if (r.schema && 'asks_figure' in ((r.schema as { properties?: object }).properties ?? {}))
        return { content: '{"asks_figure": false}' };
      if (r.schema) return persona(r);
      const done = r.messages.filter((m) => m.role === 'tool').length;
      if (done < queries.length)
        return { toolCalls: [{ name: 'query_table', arguments: { attachment_id: attachment, sql: queries[done] } }] };
      return { content: 'Groceries, rent, travel and fun have 500 transactions each.' };
    });
    const id = await newThread();
    const evs = await sendWith(id, 'How many transactions are there per category?', [attachment]);
    assert.equal(evs.at(-1)!.type, 'done');
    const ran = results(evs);
    assert.equal(ran.length, 4);
    assert.deepEqual((ran[0].result as { rows: unknown[][] }).rows, [
      ['fun', 500],
      ['groceries', 500],
      ['rent', 500],
      ['travel', 500],
    ]);
    for (const refused of [ran[1], ran[2]]) {
      assert.equal(refused.ok, false);
      assert.match(refused.error!, /only a single SELECT query is allowed/);
    }
    assert.deepEqual((ran[3].result as { rows: unknown[][] }).rows, [[2000, Number(money(total))]], 'the table is whole, the sum exact');
    assert.ok(!fs.existsSync('/tmp/hearth-elsewhere.db'), 'nothing was attached or made');
    assert.ok(fs.existsSync(await dbPath()));
    double.setScript(undefined);
  });
});

describe('a query that never ends', () => {
  test('is stopped at its deadline while the server answers other requests, and the turn still answers', async () => {
    await makeRuntime({ llamaUrl: double.url, env: { HEARTH_TABLE_QUERY_MS: '1500' } });
    const file = await upload('n.csv', `n\n${Array.from({ length: 100 }, (_, i) => i).join('\n')}\n`, 'text/csv');
    const runaway = 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r';
    double.setScript((r: DoubleRequest) => {
      if (r.schema)
        return {
          content:
            r.schema && 'asks_figure' in ((r.schema as { properties?: object }).properties ?? {})
              ? '{"asks_figure": false}'
              : persona(r).content,
        };
      if (!r.messages.some((m) => m.role === 'tool'))
        return { toolCalls: [{ name: 'query_table', arguments: { attachment_id: file.body.id, sql: runaway } }] };
      return { content: 'That query could not finish; counting the numbers directly, there are 100.' };
    });
    const id = await newThread();
    const res = await messagesRoute.POST(
      req('POST', `/api/threads/${id}/messages`, { content: 'Count forever, please', attachmentIds: [file.body.id] }),
      params({ id }),
    );
    const seen: Ev[] = [];
    let answeredAfterMs = Infinity;
    for await (const frame of readSse(res.body!)) {
      const e = JSON.parse(frame.data) as Ev;
      seen.push(e);
      if (e.type === 'tool_call' && e.name === 'query_table') {
        // The query runs in a process of its own: the server answers meanwhile.
        const asked = performance.now();
        const other = await threadsRoute.GET(req('GET', '/api/threads?limit=5'));
        assert.equal(other.status, 200);
        answeredAfterMs = performance.now() - asked;
      }
    }
    const [stopped] = results(seen);
    assert.ok(
      answeredAfterMs < stopped.ms,
      `another request was answered (${answeredAfterMs.toFixed(0)} ms) while the query ran (${stopped.ms} ms)`,
    );
    assert.equal(stopped.ok, false);
    assert.match(stopped.error!, /ran longer than 1\.5 s and was stopped/);
    assert.ok(stopped.ms < 8_000, `stopped in bounded time (${stopped.ms} ms)`);
    assert.equal(seen.at(-1)!.type, 'done');
    double.setScript(undefined);
  });
});

describe('uploads', () => {
  test('a CSV that is not UTF-8 is read as a table with its text decoded; a zip called .xlsx that is none is refused with the reason', async () => {
    await makeRuntime({ llamaUrl: double.url });
    const latin = await upload('kasse.csv', Buffer.from('Artikel;Preis\nKäse;3,20\nBrötchen;0,45\n', 'latin1'), 'text/csv');
    assert.equal(latin.status, 201, JSON.stringify(latin.body));
    assert.equal(latin.body.kind, 'sheet');
    // The model reads its text as it is, decoded.
    const id = await newThread();
    double.requests.length = 0;
    await sendWith(id, 'What does this receipt list?', [latin.body.id]);
    assert.match(JSON.stringify(rounds(double)[0].messages), /Käse;3,20\\nBrötchen;0,45/);
    const fake = await upload(
      'report.xlsx',
      Buffer.from('PK\u0003\u0004 not really a zip at all', 'latin1'),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    assert.equal(fake.status, 415);
    assert.match(fake.body.error.message, /report\.xlsx could not be read as a table/);
  });
});
