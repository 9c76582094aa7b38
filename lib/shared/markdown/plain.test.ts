import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markdownToPlain } from './plain';

test('a snippet reads as words, not Markdown', () => {
  assert.equal(
    markdownToPlain('**Latest on bitcoin**: see [the page](https://example.org) and `code`.'),
    'Latest on bitcoin: see the page and code.',
  );
  assert.equal(
    markdownToPlain('## Result\n\n> quoted _here_\n- one\n1. two\n~~old~~ ![chart](x.png)'),
    'Result\n\nquoted here\none\ntwo\nold chart',
  );
  assert.equal(markdownToPlain('```ts\nconst a = 2 * 3 * 4;\n```'), '\nconst a = 2 * 3 * 4;\n', 'code keeps its stars');
  assert.equal(markdownToPlain('snake_case_name and 2*3*4'), 'snake_case_name and 2*3*4');
});

test('an answer as a screen reader should hear it: table rows as cells, no rules, no raw HTML (issue 46)', () => {
  assert.equal(
    markdownToPlain(
      '## Fruit\n\n**Apples** are red.\n\n| fruit | count |\n|---|:-:|\n| apple | 3 |\n\n---\n\n<script>x = 1</script>Text with <img src=x> an image.',
    ),
    'Fruit\n\nApples are red.\n\nfruit, count\napple, 3\n\nText with  an image.',
  );
});
