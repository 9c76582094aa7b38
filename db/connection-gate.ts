import { AsyncLocalStorage } from 'node:async_hooks';
import type BetterSqlite3 from 'better-sqlite3';

/** A family of queries as the store's port offers it: every call answers with a promise, on every engine. */
export type Asynchronous<F> = {
  [K in keyof F]: F[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : F[K];
};

/**
 * SQLite's one connection, shared by every request of the process. Its statements are
 * synchronous, so a single call is atomic by itself; a transaction whose work awaits is not: while
 * it is open, another request's statement would run inside it (and be undone by its rollback, or
 * see its unfinished writes). The gate keeps such statements out: an open transaction holds it,
 * work that belongs to that transaction (the async context that opened it) goes through, and every
 * other call waits until it commits or rolls back. With no transaction open a call runs at once,
 * in the order it was made, as it did when the store was synchronous.
 *
 * A transaction's work must not wait on a store call made outside it (it would wait forever); it
 * should touch only the store and compute, never the network.
 */
export class ConnectionGate {
  private readonly context = new AsyncLocalStorage<symbol>();
  private holder: symbol | null = null;
  private released: Promise<void> = Promise.resolve();
  private release: () => void = () => {};

  constructor(private readonly sqlite: BetterSqlite3.Database) {}

  /** The family with each function answered through the gate. */
  asynchronous<F extends object>(family: F): Asynchronous<F> {
    const gated: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(family)) {
      gated[name] =
        typeof value === 'function'
          ? (...args: unknown[]) => this.call(() => (value as (...a: unknown[]) => unknown).apply(family, args))
          : value;
    }
    return gated as Asynchronous<F>;
  }

  /** Runs one synchronous piece of work on the connection, once no other transaction holds it. */
  call<T>(work: () => T): Promise<T> {
    if (this.mayEnter()) {
      try {
        return Promise.resolve(work());
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    return this.callLater(work);
  }

  /**
   * Runs `work` in one transaction (BEGIN IMMEDIATE: it takes the write lock at once, so it cannot
   * fail half way for want of it): all its writes land together or none does. Inside an open
   * transaction it simply runs as part of it.
   */
  async transaction<T>(work: () => Promise<T> | T): Promise<T> {
    if (this.holder !== null && this.context.getStore() === this.holder) return work();
    // The check and the taking happen in one synchronous step: no one can slip in between.
    while (!this.mayEnter()) await this.released;
    const token = Symbol('transaction');
    this.holder = token;
    this.released = new Promise((resolve) => (this.release = resolve));
    try {
      this.sqlite.exec('BEGIN IMMEDIATE');
      try {
        const result = await this.context.run(token, work);
        this.sqlite.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
        throw error;
      }
    } finally {
      this.holder = null;
      this.release();
    }
  }

  private mayEnter(): boolean {
    return this.holder === null || this.context.getStore() === this.holder;
  }

  private async callLater<T>(work: () => T): Promise<T> {
    // As in transaction(): the last check and the work run in one synchronous step.
    while (!this.mayEnter()) await this.released;
    return work();
  }
}
