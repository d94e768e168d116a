/**
 * The keystore in the database (cluster mode, ADR 041): a secret set through one replica's
 * connection is read through another's; the rows hold no secret; a replica with another key
 * fails in one clear line (reading, writing, at the start's check) and loses nothing.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenDb } from '../../src/storage/create-db.js';
import { checkKeystoreKey, openDbKeystore, requireClusterKey } from '../../src/storage/db-keystore.js';
import { keystoreEntriesTable } from '../../src/storage/schema.js';
import { DIALECTS, openSharedPostgres, openTestDb } from '../support/test-db.js';

const SECRET = 'sk-cluster-secret-0123456789';
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('keystore in the database, two replicas on one PostgreSQL database', () => {
  it('a secret set on replica A is read on replica B; the database holds no secret', async () => {
    const shared = await openSharedPostgres(2);
    cleanup.push(() => shared.close());
    const [storeA, storeB] = shared.stores as [OpenDb, OpenDb];
    const key = randomBytes(32);
    const a = openDbKeystore({ db: storeA.db, key });
    const b = openDbKeystore({ db: storeB.db, key });
    await a.set('github', SECRET);
    expect(await b.get('github')).toBe(SECRET);
    expect(await b.names()).toEqual(['github']);
    await b.set('github', 'rotated');
    expect(await a.get('github')).toBe('rotated');
    const rows = await storeB.db.select().from(keystoreEntriesTable);
    expect(JSON.stringify(rows)).not.toContain('rotated');
    expect(JSON.stringify(rows)).not.toContain(Buffer.from('rotated').toString('base64'));
    expect(await a.remove('github')).toBe(true);
    expect(await b.remove('github')).toBe(false);
    expect(await b.get('github')).toBeNull();
  });
});

describe.each(DIALECTS)('keystore in the database (%s)', (dialect) => {
  it('with a wrong key: one clear line on read, write and the start check; nothing lost', async () => {
    const store = await openTestDb(dialect);
    cleanup.push(() => store.close());
    const key = randomBytes(32);
    const right = openDbKeystore({ db: store.db, key });
    // An empty keystore takes any key.
    await expect(checkKeystoreKey(store.db, randomBytes(32))).resolves.toBeUndefined();
    await right.set('x', SECRET);
    const wrong = openDbKeystore({ db: store.db, key: randomBytes(32) });
    const says =
      'keystore: cannot decrypt "x" in the database: BOTERNITY_KEYSTORE_KEY is not the key it was sealed with (give every replica the same key)';
    await expect(wrong.get('x')).rejects.toThrow(says);
    await expect(wrong.set('y', 'other')).rejects.toThrow(says);
    await expect(wrong.set('x', 'overwrite')).rejects.toThrow(says);
    await expect(checkKeystoreKey(store.db, randomBytes(32))).rejects.toThrow(says);
    await expect(checkKeystoreKey(store.db, key)).resolves.toBeUndefined();
    expect(await right.names()).toEqual(['x']);
    expect(await right.get('x')).toBe(SECRET);
  });

  it('refuses bad names and empty secrets, naming what is wrong', async () => {
    const store = await openTestDb(dialect);
    cleanup.push(() => store.close());
    const ks = openDbKeystore({ db: store.db, key: randomBytes(32) });
    await expect(ks.set('no spaces', 'v')).rejects.toThrow(/credential name/);
    await expect(ks.set('ok', '')).rejects.toThrow('keystore: refusing an empty secret');
    expect(await ks.names()).toEqual([]);
  });
});

describe('requireClusterKey', () => {
  it('says in one line what to set when the key is missing', () => {
    expect(() => requireClusterKey(null)).toThrow(
      "a PostgreSQL database keeps the keystore in the database, sealed with BOTERNITY_KEYSTORE_KEY: set it, the same on every replica (e.g. 'openssl rand -hex 32')",
    );
  });
});
