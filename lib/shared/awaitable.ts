/** A value now (a test's double answers at once) or later (the store's answers are promises): code over a port is written once for both. */
export type Awaitable<T> = T | Promise<T>;

/**
 * A port to the store written with its answers' types: each function may answer now or later.
 * (A generic function, such as transaction, is declared beside it: a mapped type loses its type parameter.)
 */
export type Port<F> = {
  [K in keyof F]: NonNullable<F[K]> extends (...args: infer A) => infer R ? (...args: A) => Awaitable<Awaited<R>> : F[K];
};

/** Runs work atomically on the store: its writes land together or not at all. */
export type Transactional = { transaction<T>(work: () => Promise<T>): Promise<T> };
