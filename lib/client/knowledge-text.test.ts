import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectionLine, count, fileStatus, progressLine, searchModeText, sizeInKb, uploadOutcome } from './knowledge-text';

const file = { status: 'ready' as 'queued' | 'indexing' | 'ready' | 'error', chunks: 1, embedded: 0, error: null as string | null };

test('counts say one and many, with thousands separated', () => {
  assert.equal(count(1, 'passage'), '1 passage');
  assert.equal(count(0, 'passage'), '0 passages');
  assert.equal(count(1204, 'passage'), '1,204 passages');
});

test('the search mode names words alone, words and meaning, or the embeddings server failing', () => {
  assert.match(searchModeText(null), /by their words\. Set an embeddings server/);
  assert.match(searchModeText({ byMeaning: false, embeddingsError: null }), /by their words\. Set an embeddings server/);
  assert.equal(searchModeText({ byMeaning: true, embeddingsError: null }), 'Passages are found by their words and by meaning.');
  assert.equal(
    searchModeText({ byMeaning: true, embeddingsError: 'connection refused' }),
    'Search by words for now: the embeddings server fails (connection refused).',
  );
});

test("a collection's line says how far indexing is only while files wait, and whether every conversation uses it", () => {
  assert.equal(collectionLine({ files: 1, ready: 1, failed: 0, everyThread: false, shared: false }), '1 file');
  assert.equal(collectionLine({ files: 3, ready: 1, failed: 1, everyThread: false, shared: false }), '3 files · indexing 1/3');
  assert.equal(collectionLine({ files: 2, ready: 1, failed: 1, everyThread: true, shared: false }), '2 files · every conversation');
  // Shared: by me with everyone, or by someone else with me (then every conversation of mine searches it).
  assert.equal(collectionLine({ files: 1, ready: 1, failed: 0, everyThread: false, shared: true }), '1 file · shared with everyone');
  assert.equal(
    collectionLine({ files: 1, ready: 1, failed: 0, everyThread: false, shared: true, sharedBy: 'olive' }),
    '1 file · shared by olive',
  );
});

test("a collection's progress names unreadable files and vectors only when there are any", () => {
  const d = { files: 2, ready: 2, failed: 0, chunks: 1, embedded: 1500, search: { byMeaning: false, embeddingsError: null } };
  assert.equal(progressLine(d), '2 files · 2 indexed · 1 passage');
  assert.equal(
    progressLine({ ...d, failed: 1, search: { byMeaning: true, embeddingsError: null } }),
    '2 files · 2 indexed · 1 could not be read · 1 passage · 1,500 with vectors',
  );
});

test("a file's state: waiting, indexing with how much is embedded by meaning, ready with its passages, or why not", () => {
  assert.deepEqual(fileStatus({ ...file, status: 'queued' }, true), { text: 'waiting', tone: 'working' });
  assert.deepEqual(fileStatus({ ...file, status: 'indexing', chunks: 3, embedded: 2 }, true), { text: 'indexing 66%', tone: 'working' });
  assert.deepEqual(fileStatus({ ...file, status: 'indexing', chunks: 3, embedded: 2 }, false), { text: 'indexing', tone: 'working' });
  assert.deepEqual(fileStatus({ ...file, status: 'indexing', chunks: 0 }, true), { text: 'indexing', tone: 'working' });
  assert.deepEqual(fileStatus({ ...file, chunks: 12 }, false), { text: 'ready · 12 passages', tone: 'done' });
  assert.deepEqual(fileStatus({ ...file, status: 'error', error: 'a scanned PDF' }, false), {
    text: 'not indexed: a scanned PDF',
    tone: 'failed',
  });
  assert.deepEqual(fileStatus({ ...file, status: 'error' }, false), { text: 'not indexed: unreadable', tone: 'failed' });
});

test('sizes in KB keep one decimal under 10 KB', () => {
  assert.equal(sizeInKb(512), '0.5 KB');
  assert.equal(sizeInKb(10239), '10.0 KB');
  assert.equal(sizeInKb(10240), '10 KB');
});

test("an upload's outcome names what was skipped and why", () => {
  assert.equal(uploadOutcome({ files: [1], skipped: [] }), 'added');
  assert.equal(uploadOutcome({ files: [1, 2], skipped: [{ name: 'x.exe', reason: 'not text' }] }), 'added 2; skipped x.exe (not text)');
});
