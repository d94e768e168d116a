/**
 * Work serialized per key (a server): each piece starts once the previous one for the same
 * key has settled, whatever its outcome; different keys run side by side.
 * @module
 */

/** The queues. */
export type Serializer = {
  /** Run `work` after what is queued for `key`; resolves or rejects as `work` does. */
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** Resolves once every piece queued so far (and queued meanwhile) has settled. */
  idle(): Promise<void>;
};

/** Empty queues. */
export function createSerializer(): Serializer {
  const queues = new Map<string, Promise<unknown>>();
  return {
    run(key, work) {
      const previous = queues.get(key) ?? Promise.resolve();
      const next = previous.then(work, work);
      const settled = next.catch(() => undefined);
      queues.set(key, settled);
      void settled.then(() => {
        if (queues.get(key) === settled) queues.delete(key);
      });
      return next;
    },
    async idle() {
      while (queues.size > 0) await Promise.all([...queues.values()]);
    },
  };
}
