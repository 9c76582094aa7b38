import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import pg from 'pg';
import { retrieve } from '@/lib/data/knowledge/retrieve';
import { wordMatch } from '@/lib/data/search/query';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { openDatabase } from '../client';
import { createStore, type Store } from '../store';
import { copyInstallation, placeOf } from './copy';
import { pgKnowledgeSearchQueries } from './knowledge-search';
import { libraryOptions } from './migrate';
import { openPgStore } from './store';
import { skipWithoutPostgres, withTestDatabase } from './testing';
import { sqliteOf } from '@/lib/dev/testing/store';

const DIMS = 8;

/** A normalised vector leaning towards one of eight directions, a little towards the next. */
function toward(i: number): Float32Array {
  const v = new Float32Array(DIMS).fill(0.02);
  v[i % DIMS] = 1;
  v[(i + 1) % DIMS] = 0.3;
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/** Two collections of passages in three languages, each with a vector; one collection made by another file with a short passage. */
async function fill(s: Store) {
  const passages: [string, string, string[]][] = [
    [
      'co',
      'boiler.md',
      [
        'The boiler pressure should read 1.5 bar when cold.',
        'Bleed the radiators if the pressure rises above 2.5 bar.',
        'Warranty: the heat pump warranty lasts five years.',
      ],
    ],
    ['co', 'pâtisserie.md', ['La pâte à choux se cuit à 180 degrés.', 'Crème pâtissière: lait, œufs, sucre et farine.', 'Short.']],
    ['other', 'brot.md', ['Brötchen brauchen Hefe und Zeit.', 'Die Bäckerei öffnet um sechs Uhr.']],
    ['other', 'code.md', ['Build paths with os.path.join; the recipes are at https://example.com/brot.']],
  ];
  await s.createCollection({ id: 'co', name: 'House', now: 1 });
  await s.createCollection({ id: 'other', name: 'Bread', now: 1 });
  let chunk = 0;
  const vectors: { chunkId: number; vector: Float32Array }[] = [];
  for (const [collectionId, name, texts] of passages) {
    const fileId = `f-${name}`;
    sqliteOf(s)
      .prepare(
        "insert into collection_files (id, collection_id, name, mime, size, sha256, kind, status, created_at) values (?, ?, ?, 'text/markdown', 10, ?, 'text', 'indexing', 1)",
      )
      .run(fileId, collectionId, name, `sha-${name}`);
    await s.setFileChunks({
      fileId,
      status: 'indexing',
      chunks: texts.map((text, i) => ({ text, page: null, lineStart: i + 1, lineEnd: i + 1 })),
    });
    for (const id of (sqliteOf(s).prepare('select id from doc_chunks where file_id = ? order by seq').all(fileId) as { id: number }[]).map(
      (r) => r.id,
    ))
      vectors.push({ chunkId: id, vector: toward(chunk++) });
  }
  await s.storeVectors({ model: 'embed', vectors });
}

describe('knowledge collections on PostgreSQL', { skip: skipWithoutPostgres }, () => {
  test('a collection answers the same on both engines: by words, by meaning, and the passages retrieval gives', async () => {
    const dir = makeTempDir('hearth-pg-knowledge');
    const lite = createStore(openDatabase(path.join(dir, 'hearth.db')));
    await fill(lite);
    await withTestDatabase(async (url) => {
      await copyInstallation(placeOf(dir), placeOf(url));
      const pool = new pg.Pool({ connectionString: url, options: libraryOptions('hearth') });
      const there = pgKnowledgeSearchQueries(pool);
      try {
        let answered = 0;
        for (const [query, options] of [
          ['pressure bar', {}],
          ['pressure warranty', { anyWord: true }],
          ['pate choux', {}],
          ['CRÈME', {}],
          ['brotchen', {}],
          ['bäckerei', {}],
          ['nothing here', {}],
          ['join', {}],
          ['example brot', {}],
        ] as const) {
          const match = wordMatch(query, { ...options, prefix: false })!;
          for (const collectionIds of [['co'], ['other'], ['co', 'other'], []]) {
            const here = await lite.chunksMatching({ match, collectionIds, limit: 10 });
            assert.deepEqual(
              (await there.chunksMatching({ match, collectionIds, limit: 10 })).sort(),
              [...here].sort(),
              `${query} in ${collectionIds}`,
            );
            if (here.length > 0) answered++;
          }
        }
        assert.ok(answered >= 10, `the queries find passages (${answered})`);
        const terms = ['pressure', 'bar', 'brotchen', 'absent'];
        assert.deepEqual(await there.termCounts({ terms }), await lite.termCounts({ terms }));

        for (let i = 0; i < DIMS; i++) {
          const near = { vector: toward(i), collectionIds: ['co', 'other'], limit: 3, candidates: 50 };
          assert.deepEqual(
            (await there.chunksNear(near)).map((h) => h.id),
            (await lite.chunksNear(near)).map((h) => h.id),
            `nearest to direction ${i}`,
          );
        }
        assert.deepEqual(
          await there.chunksNear({ vector: new Float32Array(4), collectionIds: ['co'], limit: 3, candidates: 3 }),
          [],
          'another size: none',
        );
        assert.deepEqual(await there.chunksByIds({ ids: [1, 5, 8] }), await lite.chunksByIds({ ids: [1, 5, 8] }));
        assert.deepEqual(await there.chunkAt({ fileId: 'f-boiler.md', seq: 1 }), await lite.chunkAt({ fileId: 'f-boiler.md', seq: 1 }));
        assert.equal(await there.chunkAt({ fileId: 'f-boiler.md', seq: 9 }), undefined);

        // Retrieval as a turn runs it, by words and meaning, with a short passage read with its neighbours.
        const embedder = { model: 'embed', client: { embed: async () => [toward(4)] } };
        for (const query of ['Crème pâtissière short', 'boiler pressure', 'Hefe']) {
          const here = await retrieve({ store: lite, query, collectionIds: ['co', 'other'], embedder });
          assert.ok(here.passages.length >= 2 && here.byMeaning, query);
          assert.deepEqual(await retrieve({ store: there, query, collectionIds: ['co', 'other'], embedder }), here, query);
        }
      } finally {
        await pool.end();
        lite.db.$client.close();
      }
    });
  });

  test('with pgvector, passages are ranked inside the database, with the same answers, and its copy follows the vectors', async (t) => {
    const dir = makeTempDir('hearth-pgvector');
    const lite = createStore(openDatabase(path.join(dir, 'hearth.db')));
    await fill(lite);
    await withTestDatabase(async (url) => {
      const probe = new pg.Client({ connectionString: url });
      await probe.connect();
      const offered = (await probe.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)).rowCount;
      await probe.end();
      if (!offered) {
        lite.db.$client.close();
        t.skip('this PostgreSQL server has no pgvector (Debian 12 does not package it; without it Hearth scans, as the test above checks)');
        return;
      }
      await copyInstallation(placeOf(dir), placeOf(url));
      const there = await openPgStore(url, 'hearth', { maxConnections: 2 });
      const look = new pg.Pool({ connectionString: url, options: libraryOptions('hearth'), max: 1 });
      try {
        if ((await there.vectorSearchMethod()) === 'scan') {
          t.skip('the server offers pgvector but this role may not enable it (the log said so; Hearth scans)');
          return;
        }
        assert.match((await there.vectorSearchMethod()) ?? '', /^pgvector \d+\.\d+/, 'it says it ranks with pgvector');
        const nearest = async (s: Pick<Store, 'chunksNear'>, i: number, collectionIds = ['co', 'other']) =>
          (await s.chunksNear({ vector: toward(i), collectionIds, limit: 3, candidates: 50 })).map((h) => h.id);
        for (let i = 0; i < DIMS; i++) assert.deepEqual(await nearest(there, i), await nearest(lite, i), `nearest to direction ${i}`);
        const copies = async () => (await look.query<{ n: number }>('SELECT count(*)::int AS n FROM chunk_embeddings')).rows[0].n;
        assert.equal(await copies(), 9, 'the copied library’s vectors were copied for pgvector at its first search');
        // A passage embedded again: its old vector is never an answer again.
        const moved = { model: 'embed', vectors: [{ chunkId: 1, vector: toward(5) }] };
        await lite.storeVectors(moved);
        await there.storeVectors(moved);
        for (let i = 0; i < DIMS; i++)
          assert.deepEqual(await nearest(there, i), await nearest(lite, i), `after, nearest to direction ${i}`);
        const similarity = (await there.chunksNear({ vector: toward(5), collectionIds: ['co'], limit: 1, candidates: 1 }))[0];
        assert.deepEqual(similarity.id, 1);
        assert.ok(Math.abs(similarity.similarity - 1) < 1e-6, `cosine with itself: ${similarity.similarity}`);
        // A vector replaced by a writer that made no copy (or whose copy a search made from the row it replaced):
        // the copy of the old row is never used, and is made again from the new one.
        const replaced = new Float32Array([0.5, 0.5, 0.5, 0.5, 0, 0, 0, 0]);
        await look.query('UPDATE chunk_vectors SET vector = $1 WHERE chunk_id = 2', [Buffer.from(replaced.buffer)]);
        await lite.storeVectors({ model: 'embed', vectors: [{ chunkId: 2, vector: replaced }] });
        for (let i = 0; i < DIMS; i++)
          assert.deepEqual(await nearest(there, i), await nearest(lite, i), `after a replacement unseen, nearest to direction ${i}`);
        const alone = { vector: replaced, collectionIds: ['co', 'other'], limit: 1, candidates: 1 };
        assert.deepEqual(
          (await there.chunksNear(alone)).map((h) => h.id),
          [2],
          'pgvector alone picks it by its new vector',
        );
        // A collection deleted takes its passages' copies with it.
        await there.deleteCollection({ id: 'co' });
        assert.deepEqual(await nearest(there, 0, ['co']), []);
        assert.equal(await copies(), 3, 'only the other collection’s');
      } finally {
        await look.end();
        await there.close();
        lite.db.$client.close();
      }
    });
  });

  test('pgvector enabled before in a schema of its own (as Supabase has it) is used where it is', async (t) => {
    await withTestDatabase(async (url) => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        if (!(await admin.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)).rowCount) {
          t.skip('this PostgreSQL server has no pgvector');
          return;
        }
        await admin.query('CREATE SCHEMA extensions; CREATE EXTENSION vector SCHEMA extensions');
      } finally {
        await admin.end();
      }
      const dir = makeTempDir('hearth-pgvector-schema');
      const lite = createStore(openDatabase(path.join(dir, 'hearth.db')));
      await fill(lite);
      await copyInstallation(placeOf(dir), placeOf(url));
      const there = await openPgStore(url, 'hearth', { maxConnections: 2 });
      try {
        assert.match((await there.vectorSearchMethod()) ?? '', /^pgvector /);
        for (let i = 0; i < DIMS; i++) {
          const near = { vector: toward(i), collectionIds: ['co', 'other'], limit: 3, candidates: 50 };
          assert.deepEqual(
            (await there.chunksNear(near)).map((h) => h.id),
            (await lite.chunksNear(near)).map((h) => h.id),
          );
        }
      } finally {
        await there.close();
        lite.db.$client.close();
      }
    });
  });
});
