import 'server-only';
import path from 'node:path';
import { getConfig } from '@/lib/config';
import { openDatabase, type Db } from './client';

const key = Symbol.for('hearth.db');
type Holder = { [key]?: Db };

/**
 * The process's database handle. Next bundles each route separately, so the handle lives on
 * globalThis: every route and the turn registry share one connection.
 */
export function getDb(): Db {
  const holder = globalThis as Holder;
  holder[key] ??= openDatabase(path.resolve(getConfig().DATA_DIR, 'hearth.db'));
  return holder[key];
}
