/** A value now (SQLite's store answers at once) or later (PostgreSQL's): code over a store is written once for both. */
export type Awaitable<T> = T | Promise<T>;
