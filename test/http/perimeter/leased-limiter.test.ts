/**
 * Blocks of a shared limit spent in memory (ADR 042): two replicas' limiters on one
 * PostgreSQL table (two pools, as two processes have) admit no more than the limit and at
 * least 90 % of it, asking the table once per block; a full window is refused here without
 * asking again; a point given back returns to the block.
 */
import { pino } from 'pino';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseFrom, type PointLimiter } from '../../../src/http/perimeter/leased-limiter.js';
import type { OpenDb } from '../../../src/storage/create-db.js';
import { createDb } from '../../../src/storage/create-db.js';
import { createFleetStoreHealth } from '../../../src/storage/pg/fleet-store-health.js';
import { createPgLimiterStore } from '../../../src/storage/pg/pg-limiter-store.js';
import { createPostgresDatabase } from '../../support/test-db.js';

const POINTS = 200;
const BLOCK = 4;

describe('a shared limit taken in blocks', () => {
  const stores: OpenDb[] = [];
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await createPostgresDatabase();
    drop = database.drop;
    for (let i = 0; i < 2; i++) stores.push(await createDb({ url: database.url }));
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await drop?.();
  });

  /** A replica's shared limiter, counting how often it asks the table. */
  const replica = (store: OpenDb, keyPrefix: string) => {
    const sql = store.postgres;
    if (!sql) throw new Error('not PostgreSQL');
    const health = createFleetStoreHealth({
      log: pino({ level: 'silent' }),
      settings: () => ({ timeoutMs: 10_000, retryMs: 1_000 }),
    });
    const shared: RateLimiterAbstract = createPgLimiterStore({ sql, health }).limiter({
      keyPrefix,
      points: POINTS,
      duration: 600,
      insuranceLimiter: new RateLimiterMemory({ points: POINTS, duration: 600 }),
    });
    let asked = 0;
    const counted: PointLimiter = {
      consume: (key, points) => {
        asked += 1;
        return shared.consume(key, points);
      },
      reward: (key, points) => shared.reward(key, points),
    };
    return { limiter: leaseFrom(counted, { points: POINTS, block: BLOCK }), asked: () => asked };
  };
  const admitted = async (limiter: PointLimiter, key: string) =>
    limiter.consume(key).then(
      () => true,
      (refused: unknown) => {
        if (refused instanceof RateLimiterRes) return false;
        throw refused;
      },
    );

  it('admits at most the limit across two replicas, at least 90 % of it, one round trip a block', async () => {
    const [a, b] = [replica(stores[0] as OpenDb, 'k1'), replica(stores[1] as OpenDb, 'k1')];
    const results = await Promise.all(
      Array.from({ length: 3 * POINTS }, (_, i) => admitted((i % 2 === 0 ? a : b).limiter, 'token:x')),
    );
    const count = results.filter(Boolean).length;
    expect(count).toBeLessThanOrEqual(POINTS);
    expect(count).toBeGreaterThanOrEqual(POINTS * 0.9);
    // One ask a block, plus the one per replica that found the window full.
    expect(a.asked() + b.asked()).toBeLessThanOrEqual(Math.ceil(POINTS / BLOCK) + 2);
    // Full: refused here, the table not asked again.
    const before = a.asked();
    for (let i = 0; i < 20; i++) expect(await admitted(a.limiter, 'token:x')).toBe(false);
    expect(a.asked()).toBe(before);
  });

  it('gives a point given back to the block it came from, and says when the window ends', async () => {
    const { limiter, asked } = replica(stores[0] as OpenDb, 'k2');
    expect(await admitted(limiter, 'token:y')).toBe(true);
    await limiter.reward('token:y');
    for (let i = 0; i < BLOCK; i++) expect(await admitted(limiter, 'token:y')).toBe(true);
    expect(asked()).toBe(1);
    // Spend the rest of the window; the refusal carries the time left.
    let refused: unknown = null;
    for (let i = 0; i < POINTS && !refused; i++)
      refused = await limiter.consume('token:y').then(
        () => null,
        (e) => e,
      );
    expect(refused).toBeInstanceOf(RateLimiterRes);
    expect((refused as RateLimiterRes).msBeforeNext).toBeGreaterThan(590_000);
  });
});
