/**
 * The health gate of the fleet's shared counters (ADR 042): a failing or slow statement
 * marks the store down with one warning however many follow; while down, statements are
 * refused at once without running, and one probe runs every `retryMs`; the first success
 * logs one line and lets every statement through again.
 */
import { describe, expect, it } from 'vitest';
import { DatabaseError } from '../../../src/errors.js';
import { createFleetStoreHealth } from '../../../src/storage/pg/fleet-store-health.js';
import { captureLog, LEVEL } from '../../support/capture-log.js';

const setUp = (timeoutMs = 1_000) => {
  const { log, lines } = captureLog();
  let clock = 1_000;
  const health = createFleetStoreHealth({ log, settings: () => ({ timeoutMs, retryMs: 5_000 }), now: () => clock });
  return { health, lines, tick: (ms: number) => (clock += ms) };
};

describe('the fleet store health gate', () => {
  it('warns once for an outage, refuses without running while down, probes every retryMs, says when it is back', async () => {
    const { health, lines, tick } = setUp();
    expect(await health.run(async () => 'ok')).toBe('ok');
    const outage = new Error('connection refused');
    await expect(health.run(() => Promise.reject(outage))).rejects.toBe(outage);
    expect(health.up()).toBe(false);
    let ran = 0;
    const counted = async () => {
      ran += 1;
      return 'ran';
    };
    for (let i = 0; i < 50; i++) await expect(health.run(counted)).rejects.toBeInstanceOf(DatabaseError);
    expect(ran).toBe(0);
    // The probe is due: it runs, fails, and the gate closes for another retryMs, silently.
    tick(5_000);
    await expect(health.run(() => Promise.reject(outage))).rejects.toBe(outage);
    await expect(health.run(counted)).rejects.toBeInstanceOf(DatabaseError);
    tick(5_000);
    expect(await health.run(counted)).toBe('ran');
    expect(health.up()).toBe(true);
    expect(await health.run(counted)).toBe('ran');
    expect(ran).toBe(2);
    const said = lines.filter((l) => l.level >= LEVEL.info).map((l) => [l.level, l.msg]);
    expect(said).toEqual([
      [
        LEVEL.warn,
        'the database does not answer the fleet-wide limits: each replica now applies the rate limits and session caps alone, until it answers again',
      ],
      [LEVEL.info, 'the database answers again: rate limits and session caps count across the fleet again'],
    ]);
  });

  it('counts a statement slower than timeoutMs as a failure: the caller gets an answer, not a hang', async () => {
    const { health, lines } = setUp(30);
    const never = new Promise<string>(() => {});
    await expect(health.run(() => never)).rejects.toThrow('the fleet store did not answer within 30 ms');
    expect(health.up()).toBe(false);
    expect(lines.filter((l) => l.level === LEVEL.warn)).toHaveLength(1);
  });

  it('lets one probe at a time through: statements meanwhile are refused at once', async () => {
    const { health, tick } = setUp();
    await expect(health.run(() => Promise.reject(new Error('down')))).rejects.toThrow('down');
    tick(5_000);
    let release: (value: string) => void = () => {};
    const probe = health.run(() => new Promise<string>((resolve) => (release = resolve)));
    await expect(health.run(async () => 'other')).rejects.toBeInstanceOf(DatabaseError);
    release('probed');
    expect(await probe).toBe('probed');
    expect(await health.run(async () => 'other')).toBe('other');
  });
});
