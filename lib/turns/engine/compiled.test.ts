import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileAnswer, escapeMarkdown, hasGathered, resultsAsText, type Gathered } from './compiled';

/** The answer Hearth writes itself when the model wrote none, checked line by line. */

const NOTE = '_The model did not write an answer, so Hearth compiled this from what its tools found._';

test('escapeMarkdown: whitespace folded, every markdown character escaped', () => {
  assert.equal(escapeMarkdown('  a\n\n b\t c  '), 'a b c');
  assert.equal(escapeMarkdown('\\`*_{}[]()<>#!|~'), '\\\\\\`\\*\\_\\{\\}\\[\\]\\(\\)\\<\\>\\#\\!\\|\\~');
  assert.equal(escapeMarkdown('![x](javascript:alert(1))'), '\\!\\[x\\]\\(javascript:alert\\(1\\)\\)');
  assert.equal(escapeMarkdown('plain, text. 42%'), 'plain, text. 42%');
});

test('hasGathered: a result or a calculation is something', () => {
  assert.equal(hasGathered([], null), false);
  assert.equal(hasGathered([{ name: 'now', arguments: '{}', data: {} }], null), true);
  assert.equal(hasGathered([], { expression: '1+1', result: '2' }), true);
});

test('compileAnswer: a calculation alone', () => {
  assert.equal(
    compileAnswer([], { expression: '2^10', result: '1024' }),
    `${NOTE}\n\n**Calculation:** 2^10 = **1024** (computed exactly by Hearth)`,
  );
  assert.equal(compileAnswer([], null), NOTE, 'nothing gathered: the note alone');
});

test('compileAnswer: search results, the first five entries (junk among them counts), links only when http(s), snippets escaped', () => {
  const results = [
    { title: 'One', url: 'https://a.example/1', snippet: 'first *bold*' },
    { title: '', url: 'http://b.example/x y(1)', snippet: '' },
    { title: 'Bad', url: 'javascript:alert(1)', snippet: 's' },
    { title: 'No url', url: 42, snippet: '' },
    'not an object',
    { title: 'Five', url: 'https://e.example/', snippet: 'e' },
    { title: 'Six', url: 'https://f.example/', snippet: 'f' },
  ];
  const out = compileAnswer([{ name: 'web_search', arguments: '{"query":"lyon [score]"}', data: { results } }], null);
  assert.equal(
    out,
    [
      NOTE,
      '**Looked up:** web search for “lyon \\[score\\]”.',
      [
        '**What was found**',
        '- [One](https://a.example/1): first \\*bold\\*',
        '- [http://b.example/x%20y%281%29](http://b.example/x%20y%281%29)',
        '- Bad: s',
        '- No url',
      ].join('\n'),
    ].join('\n\n'),
  );
});

test('compileAnswer: a page is linked by title (or url) with an excerpt cut at 600 characters', () => {
  const long = 'w'.repeat(650);
  const out = compileAnswer(
    [
      { name: 'fetch_url', arguments: '{"url":"https://p.example/a"}', data: { url: 'https://p.example/a', title: 'Page', text: long } },
      { name: 'fetch_url', arguments: '{"url":"https://p.example/b"}', data: { url: 'https://p.example/b', text: 'short' } },
      { name: 'fetch_url', arguments: 'not json', data: { url: 'ftp://p.example/c', text: '' } },
    ],
    null,
  );
  assert.equal(
    out,
    [
      NOTE,
      '**Looked up:** the page https://p.example/a; the page https://p.example/b; the page .',
      [
        '**What was found**',
        '- [Page](https://p.example/a)',
        `  > ${'w'.repeat(600)}…`,
        '- [https://p.example/b](https://p.example/b)',
        '  > short',
        '- ftp://p.example/c',
        '  > ',
      ].join('\n'),
    ].join('\n\n'),
  );
});

test('compileAnswer: conversations, the clock, the calculator and any other tool, each in its words', () => {
  const gathered: Gathered[] = [
    {
      name: 'search_conversations',
      arguments: '{"query":"boiler"}',
      data: { results: [{ thread: 'Boiler', date: '2026-11-02', excerpt: 'x'.repeat(320) }, { excerpt: 'e' }] },
    },
    { name: 'now', arguments: '{}', data: { local: 'Tuesday 14:05', timezone: 'Europe/Paris' } },
    { name: 'calculator', arguments: '{"expression":"2*3"}', data: { expression: '2*3', result: '6' } },
    { name: 'remember', arguments: `{"fact":"${'f'.repeat(200)}"}`, data: { saved: true } },
    { name: 'odd', arguments: '{}', data: 'a string' },
    { name: 'nothing', arguments: '{}', data: undefined },
  ];
  const lines = compileAnswer(gathered, null).split('\n');
  assert.equal(lines[0], NOTE);
  assert.equal(
    lines[2],
    `**Looked up:** earlier conversations, for “boiler”; the current date and time; a calculation: 2\\*3; remember ${`{"fact":"${'f'.repeat(200)}"}`.slice(0, 120).replace(/[{}]/g, (c) => `\\${c}`)}; odd \\{\\}; nothing \\{\\}.`,
  );
  assert.deepEqual(lines.slice(4), [
    '**What was found**',
    `- Boiler (2026-11-02): ${'x'.repeat(300)}`,
    '- earlier conversation: e',
    '- It is Tuesday 14:05 (Europe/Paris).',
    '- 2\\*3 = **6**',
    '- remember: \\{"saved":true\\}',
    '- "a string"',
    '- null',
  ]);
});

test('compileAnswer: a result that is neither object nor text is previewed to 400 characters', () => {
  const out = compileAnswer([{ name: 'big', arguments: '{}', data: ['y'.repeat(500)] }], null);
  assert.equal(out.split('\n').at(-1), `- \\["${'y'.repeat(398)}`);
  const obj = compileAnswer([{ name: 'big', arguments: '{}', data: { v: 'z'.repeat(500) } }], null);
  assert.equal(obj.split('\n').at(-1), `- big: \\{"v":"${'z'.repeat(394)}`);
  const nothing = compileAnswer([{ name: 'empty', arguments: '{}', data: null }], null);
  assert.equal(nothing.split('\n').at(-1), '- null', 'a result of null is shown as such');
});

test('resultsAsText: the calculation, then each result as JSON, at most 4,000 characters each and 12,000 in all', () => {
  assert.equal(resultsAsText([], null), '');
  assert.equal(
    resultsAsText([{ name: 'now', arguments: '{}', data: { local: 'noon' } }], { expression: '1+1', result: '2' }),
    '- exact calculation: 1+1 = 2\n- now {}: {"local":"noon"}',
  );
  const big = (i: number): Gathered => ({ name: `t${i}`, arguments: '{}', data: 'x'.repeat(5000) });
  const lines = resultsAsText([big(1), big(2), big(3), big(4)], null).split('\n');
  assert.deepEqual(
    lines.map((l) => l.length - `- tN {}: `.length),
    [4000, 4000, 4000],
    'three results of 4,000 characters fill the 12,000; the fourth is left out',
  );
  // JSON of a string of n characters is n + 2 long; the first two results are cut to 4,000.
  const withThird = (n: number) =>
    resultsAsText(
      [big(1), big(2), { name: 'c', arguments: '{}', data: 'x'.repeat(n - 2) }, { name: 'd', arguments: '{}', data: 'y'.repeat(500) }],
      null,
    ).split('\n');
  assert.equal(withThird(3801).length, 3, 'with 199 characters of room left, no more results are added');
  assert.equal(withThird(3800)[3], `- d {}: "${'y'.repeat(199)}`, 'with 200 left, the next result gets exactly 200');
  assert.equal(withThird(3702)[3], `- d {}: "${'y'.repeat(297)}`, 'with 298 left, exactly 298');
});

test('compileAnswer at its edges: a page of 600 characters whole, an untitled unsafe link, a list among results and arguments that are no object left out', () => {
  const page = (n: number) =>
    compileAnswer(
      [
        {
          name: 'fetch_url',
          arguments: '{"url":"https://p.example/a"}',
          data: { url: 'https://p.example/a', title: 'Page', text: 'w'.repeat(n) },
        },
      ],
      null,
    );
  assert.ok(page(600).endsWith(`\n  > ${'w'.repeat(600)}`), 'exactly 600 characters: whole, no ellipsis');
  assert.ok(page(601).endsWith(`\n  > ${'w'.repeat(600)}…`), '601 characters: cut at 600');
  const out = compileAnswer(
    [
      {
        name: 'web_search',
        arguments: '["lyon"]',
        data: { results: [['https://a.example/', 'x'], { title: '', url: 'javascript:alert(1)', snippet: '' }] },
      },
    ],
    null,
  );
  assert.equal(out, `${NOTE}\n\n**Looked up:** web search for “”.\n\n**What was found**\n- untitled`);
});
