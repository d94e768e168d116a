import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/storage/create-db.js';
import { createProcessLedger } from '../../src/storage/process-ledger.js';
import { deferLedger } from '../../src/upstream/defer-ledger.js';

describe('deferLedger', () => {
  it('writes the records made before the ledger opened, in order, once it has', async () => {
    const store = await createDb({ url: ':memory:' });
    try {
      const stored = createProcessLedger(store.db);
      // A crashed run's row, read (and dropped) before any record of this run is written.
      await stored.recordSpawn({ serverId: 'old', pid: 7, startTime: '1' });
      let open!: () => void;
      const ready = new Promise<void>((resolve) => {
        open = resolve;
      }).then(async () => {
        expect((await stored.list()).map((row) => row.serverId)).toEqual(['old']);
        await stored.forget(7);
        return stored;
      });
      const ledger = deferLedger(ready);
      const writes = [
        ledger.recordSpawn({ serverId: 'a', pid: 10, startTime: '5' }),
        ledger.recordSpawn({ serverId: 'b', pid: 11, startTime: '6' }),
        ledger.recordExit(10),
      ];
      expect(await stored.list()).toHaveLength(1);
      open();
      await Promise.all(writes);
      expect(await stored.list()).toEqual([{ pid: 11, startTime: '6', serverId: 'b' }]);
    } finally {
      await store.close();
    }
  });

  it('fails the records when the ledger never opens, and nothing else (no unhandled rejection)', async () => {
    deferLedger(Promise.reject(new Error('never used')));
    const ledger = deferLedger(Promise.reject(new Error('database locked')));
    await expect(ledger.recordSpawn({ serverId: 'a', pid: 1, startTime: '1' })).rejects.toThrow('database locked');
  });
});
