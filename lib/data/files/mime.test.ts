import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanMimeType, isMimeType } from './mime';

test("a content type is stored only in HTTP's own grammar", () => {
  for (const ok of [
    'text/plain',
    'text/plain; charset=utf-8',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'text/csv;header=present',
    'text/plain; name="a b.txt"',
  ]) {
    assert.equal(isMimeType(ok), true, ok);
  }
  for (const bad of [
    'text/plain\x01',
    'text/html\r\nSet-Cookie: a=b',
    'text/plain\nX: y',
    'text',
    '/plain',
    'text/plain; charset',
    'text/plain; a="b\x00"',
    'tëxt/plain',
    `text/${'a'.repeat(200)}`,
    '',
  ]) {
    assert.equal(isMimeType(bad), false, JSON.stringify(bad));
  }
  assert.equal(cleanMimeType(' text/markdown ', 'text/plain'), 'text/markdown');
  assert.equal(cleanMimeType('text/plain\x01', 'text/plain'), 'text/plain');
});
