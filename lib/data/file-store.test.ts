import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { FileStore } from './file-store';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

test('files live under DATA_DIR/files by hash, a document’s text beside it, a text file being its own text', () => {
  const dataDir = makeTempDir('hearth-store');
  const files = FileStore.of(dataDir);
  const h = sha('hello');
  assert.equal(files.root, path.join(dataDir, 'files'));
  assert.equal(files.pathOf(h), path.join(dataDir, 'files', h.slice(0, 2), h));
  assert.equal(files.textPathOf({ sha256: h, kind: 'pdf' }), `${files.pathOf(h)}.txt`);
  assert.equal(files.textPathOf({ sha256: h, kind: 'docx' }), `${files.pathOf(h)}.txt`);
  assert.equal(files.textPathOf({ sha256: h, kind: 'text' }), files.pathOf(h));
  assert.throws(() => files.pathOf('../../etc/passwd'), /not a SHA-256/);
  assert.throws(() => files.pathOf(h.toUpperCase()), /not a SHA-256/);
});

test('a name that is not a hash is simply not stored: nothing is read, opened or deleted outside the store', async () => {
  const files = new FileStore(makeTempDir('hearth-store'));
  const outside = path.join(files.root, '..', 'secret');
  fs.writeFileSync(outside, 'x');
  for (const name of ['../secret', 'abc', '']) {
    assert.equal(files.has(name), false);
    assert.equal(files.read(name), undefined);
    assert.equal(files.open(name), undefined);
  }
  await files.removeUnreferenced(['../secret'], () => false);
  assert.ok(fs.existsSync(outside));
});

test('place moves a temporary file in once; the second copy of the same bytes is dropped', () => {
  const files = new FileStore(makeTempDir('hearth-store'));
  const h = sha('same');
  const first = files.tempPath();
  fs.writeFileSync(first, 'same');
  assert.equal(files.place(first, h), true);
  assert.ok(!fs.existsSync(first));
  const second = files.tempPath('import-');
  assert.match(path.basename(second), /^import-/);
  fs.writeFileSync(second, 'same');
  assert.equal(files.place(second, h), false);
  assert.ok(!fs.existsSync(second), 'the duplicate is not left in tmp/');
  assert.equal(files.read(h)?.toString(), 'same');
});

test('write keeps what is stored; read, open, head and stream give the bytes back', async () => {
  const files = new FileStore(makeTempDir('hearth-store'));
  const h = sha('abcdef');
  files.write(h, 'abcdef');
  files.write(h, 'changed?'); // same hash, so the same bytes: the first stays
  files.write(h, 'the text', 'text', 'pdf');
  assert.equal(files.read(h)?.toString(), 'abcdef');
  assert.equal(files.has(h, 'text', 'pdf'), true);
  assert.equal(files.has(sha('other')), false);
  const opened = files.open(h);
  assert.ok(opened);
  assert.equal(opened.size, 6);
  assert.equal(FileStore.head(opened, 3).toString(), 'abc');
  assert.equal(FileStore.head(opened, 100).toString(), 'abcdef', 'a head longer than the file is the file');
  assert.equal(await new Response(FileStore.stream(opened)).text(), 'abcdef', 'the stream starts at the beginning, after the head');
  const text = files.open(h, 'text', 'pdf');
  assert.ok(text);
  assert.equal(text.size, 8);
  FileStore.close(text);
});

test('removeUnreferenced deletes a file and its text unless something still refers to it; copyInto leaves tmp/ out', async () => {
  const files = new FileStore(makeTempDir('hearth-store'));
  const kept = sha('kept');
  const gone = sha('gone');
  files.write(kept, 'kept');
  files.write(gone, 'gone');
  files.write(gone, 'its text', 'text', 'docx');
  fs.writeFileSync(files.tempPath(), 'still arriving');
  const backup = new FileStore(makeTempDir('hearth-backup'));
  assert.deepEqual(files.copyInto(backup), { files: 3, bytes: 4 + 4 + 8 });
  assert.ok(!fs.existsSync(path.join(backup.root, 'tmp')));
  await files.removeUnreferenced([kept, gone, gone], (h) => h === kept);
  assert.equal(files.has(kept), true);
  assert.equal(files.has(gone), false);
  assert.equal(files.has(gone, 'text', 'docx'), false);
  assert.equal(backup.read(gone)?.toString(), 'gone');
});
