import { AsyncLocalStorage } from 'node:async_hooks';
import type BetterSqlite3 from 'better-sqlite3';

/** A family of queries as the store's port offers it: every call answers with a promise, on every engine. */
export type Asynchronous<F> = {
  [K in keyof F]: F[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : F[K];
};

/**
 * SQLite's one connection, shared by every request of the process. Each statement is atomic by
 * itself; a piece of work that awaits between statements is not: while it is under way another
 * request's statement could run in the middle of it (inside its transaction, undone by its
 * rollback, or between its check and its write). The gate keeps them apart: work holds the
 * connection from its first statement to its end, work of the same async context (the holder's
 * own calls) goes through, and every other call waits until the holder is done. A family's query
 * that awaits nothing but its statements holds the gate only for microtasks; with the gate free a
 * call starts at once, in the order made, as when the store was synchronous.
 *
 * Work holding the gate must not wait on a store call made outside it (it would wait forever); it
 * should touch only the store and compute, never the network.
 */
export class ConnectionGate {
  private readonly context = new AsyncLocalStorage<symbol>();
  private holder: symbol | null = null;
  /** Whether the holder has a transaction open (BEGIN IMMEDIATE ... COMMIT). */
  private inTransaction = false;
  /** Calls waiting for the gate, first come first served: each is woken with the gate already its own. */
  private readonly waiting: (() => void)[] = [];

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

  /** Runs a piece of work on the connection, holding it until the work is done; calls run in the order made. */
  call<T>(work: () => T | Promise<T>): Promise<T> {
    if (this.isHolder()) return settle(work);
    if (this.holder === null) return this.hold(work);
    return new Promise<void>((resolve) => this.waiting.push(resolve)).then(() => this.hold(work));
  }

  /**
   * Runs `work` in one transaction (BEGIN IMMEDIATE: it takes the write lock at once, so it cannot
   * fail half way for want of it): all its writes land together or none does. Inside an open
   * transaction it simply runs as part of it.
   */
  async transaction<T>(work: () => Promise<T> | T): Promise<T> {
    if (this.isHolder()) return this.inTransaction ? work() : this.begun(work);
    return this.call(() => this.begun(work));
  }

  private async begun<T>(work: () => Promise<T> | T): Promise<T> {
    this.sqlite.exec('BEGIN IMMEDIATE');
    this.inTransaction = true;
    try {
      const result = await work();
      this.sqlite.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
      throw error;
    } finally {
      this.inTransaction = false;
    }
  }

  private isHolder(): boolean {
    return this.holder !== null && this.context.getStore() === this.holder;
  }

  /** Takes the gate (free, or handed over) and runs `work` in a context of its own; a synchronous answer gives it back at once. */
  private hold<T>(work: () => T | Promise<T>): Promise<T> {
    const token = Symbol('holder');
    this.holder = token;
    let result: T | Promise<T>;
    try {
      result = this.context.run(token, work);
    } catch (error) {
      this.letGo();
      return Promise.reject(asError(error));
    }
    if (!isThenable(result)) {
      this.letGo();
      return Promise.resolve(result);
    }
    return Promise.resolve(result).finally(() => this.letGo());
  }

  /** Gives the gate to the first call waiting (kept for it until it runs: no later call slips in), or frees it. */
  private letGo(): void {
    const next = this.waiting.shift();
    this.holder = next ? HANDED_OVER : null;
    next?.();
  }
}

/** The gate between one holder and the waiting call it was handed to. */
const HANDED_OVER = Symbol('handed over');

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

function settle<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(asError(error));
  }
}
