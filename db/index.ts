import 'server-only';
import path from 'node:path';
import { getConfig } from '@/lib/shared/config';
import { openDatabase, type Db } from './client';

const key = Symbol.for('hearth.db');
type Holder = { [key]?: Db };

/**
 * The process's database handle. Next bundles each route separately, so the handle lives on
 * globalThis: every route and the turn supervisor share one connection.
 */
export function getDb(): Db {
  const holder = globalThis as Holder;
  const config = getConfig();
  holder[key] ??= openDatabase(path.resolve(config.DATA_DIR, 'hearth.db'), {
    maxBytes: config.HEARTH_MAX_DB_MB && config.HEARTH_MAX_DB_MB * 1024 * 1024,
  });
  return holder[key];
}
