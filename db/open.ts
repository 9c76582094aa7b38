import path from 'node:path';
import type { Config } from '@/lib/shared/config';
import { openDatabase } from './client';
import { librarySchema } from './pg/migrate';
import { openPgSignals } from './pg/signals';
import { openPgStore } from './pg/store';
import type { Signals } from '@/lib/contract/cluster-signals';
import { createStore, type Store, type StorePlace } from './store';

/**
 * Where Hearth's libraries are kept, and opening them: SQLite files in DATA_DIR by default
 * (hearth.db, people/<id>.db), or a schema each on the PostgreSQL database DATABASE_URL names.
 */

type Where = Pick<Config, 'DATA_DIR' | 'DATABASE_URL' | 'HEARTH_MAX_DB_MB'>;

/**
 * The most connections one open library holds on PostgreSQL (idle ones close after 10 s): a
 * household of twenty, all busy at once, stays within the server's default of 100.
 */
const CONNECTIONS_PER_LIBRARY = 3;

/** The engine this Hearth keeps its libraries on. */
export const engineOf = (config: Pick<Config, 'DATABASE_URL'>) => (config.DATABASE_URL ? ('postgres' as const) : ('sqlite' as const));

/** Where a library (by its name in users.library: hearth.db, people/<id>.db) is kept. */
export function libraryPlace(config: Where, library: string): StorePlace {
  return config.DATABASE_URL
    ? { engine: 'postgres', url: config.DATABASE_URL, schema: librarySchema(library) }
    : { engine: 'sqlite', file: path.resolve(config.DATA_DIR, library) };
}

/**
 * Opens the store at a place, migrating it first: a library of this Hearth, or a worker's own
 * connection to one (an import). On PostgreSQL each opened library has a small pool of its own
 * (its connections see its schema alone); `connections` bounds it.
 */
export async function openStoreAt(
  place: StorePlace,
  options: { maxBytes?: number; connections?: number; idleMs?: number } = {},
): Promise<Store> {
  if (place.engine === 'postgres')
    return openPgStore(place.url, place.schema, { maxConnections: options.connections ?? CONNECTIONS_PER_LIBRARY, idleMs: options.idleMs });
  return createStore(openDatabase(place.file, { maxBytes: options.maxBytes }));
}

/** Opens one of this Hearth's libraries where the configuration keeps them. */
export function openLibrary(config: Where, library: string): Promise<Store> {
  return openStoreAt(libraryPlace(config, library), { maxBytes: config.HEARTH_MAX_DB_MB && config.HEARTH_MAX_DB_MB * 1024 * 1024 });
}

/**
 * How this process reaches the others on the same database: PostgreSQL's LISTEN/NOTIFY
 * (db/pg/signals.ts). None on SQLite, whose file one process keeps.
 */
export function openSignals(place: StorePlace, options: { log?: (message: string) => void } = {}): Promise<Signals> | undefined {
  return place.engine === 'postgres' ? openPgSignals(place.url, options) : undefined;
}

/** A library beside this one, where it keeps them: another schema of its database, or another file in its DATA_DIR. */
export function openLibraryBeside(place: StorePlace, config: Where, library: string): Promise<Store> {
  return place.engine === 'postgres' ? openStoreAt({ ...place, schema: librarySchema(library) }) : openLibrary(config, library);
}
