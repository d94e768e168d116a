/**
 * The secrets a fleet's replicas share (SPEC K5) on a real PostgreSQL database: the first
 * replica's fingerprint is kept (never the secret), the same secret passes, another one is
 * refused in one line while another replica lives, and taken over (a change of the secret
 * with the whole fleet restarted) with one warning when none does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import type { OpenDb } from '../../src/storage/create-db.js';
import { checkSharedSecrets, secretFingerprint } from '../../src/storage/pg/shared-secrets-check.js';
import { captureLog } from '../support/capture-log.js';
import { openSharedPostgres } from '../support/test-db.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});
const KEY = 'cluster-key-one-0123456789abcdefghijklmnop';
const OTHER = 'cluster-key-two-0123456789abcdefghijklmnop';

describe("a fleet's shared secrets", () => {
  it('keeps the first fingerprint, refuses another while a replica lives, takes it when none does', async () => {
    const shared = await openSharedPostgres(1);
    cleanup.push(() => shared.close());
    const [store] = shared.stores as [OpenDb];
    const sql = store.postgres;
    if (!sql) throw new Error('not PostgreSQL');
    const { log, lines } = captureLog();
    let live: string[] = ['r1'];
    const check = (value: string) =>
      checkSharedSecrets({
        sql,
        secrets: [{ env: 'BOTERNITY_CLUSTER_KEY', value }],
        liveOthers: async () => live,
        log,
      });
    await check(KEY);
    const rows = await sql<{ name: string; fingerprint: string }[]>`select name, fingerprint from cluster_checks`;
    expect(rows).toEqual([{ name: 'BOTERNITY_CLUSTER_KEY', fingerprint: secretFingerprint(KEY) }]);
    expect(JSON.stringify(rows)).not.toContain(KEY);
    await check(KEY);
    const refused = await check(OTHER).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as Error).message).toBe(
      'BOTERNITY_CLUSTER_KEY is not the one the live replicas were given (r1): give every replica the same BOTERNITY_CLUSTER_KEY',
    );
    // Nothing changed by the refusal.
    expect((await sql`select fingerprint from cluster_checks`)[0]?.fingerprint).toBe(secretFingerprint(KEY));
    // The whole fleet restarted with a new key: taken, said once.
    live = [];
    await check(OTHER);
    expect((await sql`select fingerprint from cluster_checks`)[0]?.fingerprint).toBe(secretFingerprint(OTHER));
    expect(lines.some((line) => /BOTERNITY_CLUSTER_KEY changed since the fleet last ran/.test(line.msg))).toBe(true);
  });
});
