import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mcpToolName, readResult } from '@/lib/tools/mcp';
import { reduceSchema } from './schema';

test('a schema loses what the grammar refuses: patterns and refs it cannot resolve; a local ref stays', () => {
  const reduced = reduceSchema({
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      code: { type: 'string', pattern: '^(?!x' },
      other: { $ref: 'https://example.org/x.json' },
      local: { $ref: '#/$defs/thing' },
      missing: { $ref: '#/$defs/nothing' },
      pattern: { type: 'string', description: 'a property called pattern is data, not a keyword' },
    },
    $defs: { thing: { type: 'integer' } },
  });
  assert.ok(reduced.ok);
  assert.deepEqual(reduced.parameters, {
    type: 'object',
    properties: {
      code: { type: 'string' },
      other: {},
      local: { $ref: '#/$defs/thing' },
      missing: {},
      pattern: { type: 'string', description: 'a property called pattern is data, not a keyword' },
    },
    $defs: { thing: { type: 'integer' } },
  });
  assert.deepEqual(reduceSchema(undefined), { ok: true, parameters: { type: 'object', properties: {} } });
  assert.equal(reduceSchema({ type: 'array' }).ok, false);
  const deep = Array.from({ length: 30 }).reduce<object>((inner) => ({ type: 'object', properties: { a: inner } }), { type: 'string' });
  assert.match(reduceSchema(deep).ok ? '' : (reduceSchema(deep) as { reason: string }).reason, /nests deeper/);
});

test('tool names: server and tool, safe characters, 64 at most, unique when cut', () => {
  assert.equal(mcpToolName('notes', 'add_note'), 'notes__add_note');
  assert.equal(mcpToolName('my server', 'do.it'), 'my_server__do_it');
  const long = (t: string) => mcpToolName('a'.repeat(40), t);
  assert.equal(long('b'.repeat(40)).length, 64);
  assert.notEqual(long(`${'b'.repeat(39)}c`), long(`${'b'.repeat(39)}d`));
});

test('a result: text and links for the model, images apart (named in the text), isError as the tool’s error', () => {
  const out = readResult('cam', {
    content: [
      { type: 'text', text: 'front door' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'resource_link', uri: 'file:///door.png', name: 'door' },
    ],
  }) as { toolOutputWithImages: true; data: { text: string; links: unknown[]; images: string[] }; images: { mime: string }[] };
  assert.equal(out.toolOutputWithImages, true);
  assert.equal(out.data.text, 'front door');
  assert.deepEqual(out.data.links, [{ uri: 'file:///door.png', name: 'door' }]);
  assert.match(out.data.images[0], /^image \(image\/png/);
  assert.deepEqual(out.images, [{ mime: 'image/png', data: 'iVBORw0KGgo=' }]);
  assert.throws(
    () => readResult('cam', { isError: true, content: [{ type: 'text', text: 'no camera' }] }),
    /cam reported an error: no camera/,
  );
});
