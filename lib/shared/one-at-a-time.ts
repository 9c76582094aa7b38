/**
 * Work that checks and then writes (a fact not kept twice, a request within its budget) must
 * not interleave with the same work for the same thing: with the store answering later, two at
 * once would both check before either writes. A queue per key runs them one after another, in
 * the order asked; a failure is its caller's alone and the next one runs all the same.
 */
export function oneAtATimePer<K extends object>() {
  const queues = new WeakMap<K, Promise<unknown>>();
  return <T>(key: K, work: () => Promise<T>): Promise<T> => {
    const done = (queues.get(key) ?? Promise.resolve()).then(work);
    queues.set(
      key,
      done.catch(() => undefined),
    );
    return done;
  };
}
