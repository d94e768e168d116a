/**
 * `tuneProcess` (issue 20): the young generation capped at once, the call path optimized
 * sooner and the idle trim started when start-up is over, all stopped again; and
 * `startService` tunes only when its caller gives the tuning and the config allows it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startService } from '../../src/main.js';
import { type ProcessTuning, tuneProcess } from '../../src/runtime/tune-process.js';

describe('tuneProcess', () => {
  it('caps, records first shapes and limits heap growth at once; trims, tiers up and scavenges serially once start-up is over, once; stops what it started, last first', () => {
    const steps: string[] = [];
    const tuning = tuneProcess({
      cap: () => {
        steps.push('cap');
        return () => steps.push('uncap');
      },
      trim: () => {
        steps.push('trim');
        return () => steps.push('untrim');
      },
      tierUp: () => steps.push('tier up'),
      limitGrowth: () => steps.push('limit growth'),
      serialScavenge: () => steps.push('serial scavenge'),
      firstShapes: () => steps.push('first shapes'),
    });
    expect(steps).toEqual(['cap', 'first shapes', 'limit growth']);
    tuning.started();
    tuning.started();
    const started = ['cap', 'first shapes', 'limit growth', 'trim', 'tier up', 'serial scavenge'];
    expect(steps).toEqual(started);
    tuning.stop();
    tuning.stop();
    expect(steps).toEqual([...started, 'untrim', 'uncap']);
  });
});

describe('startService and the process tuning', () => {
  const homes: string[] = [];
  afterEach(async () => {
    for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
  });

  /** Start and stop a service with `rest` in its config; what a recording tuning saw. */
  async function run(rest: Record<string, unknown>, give: boolean): Promise<string[]> {
    const home = await mkdtemp(join(tmpdir(), 'bnity-tune-'));
    homes.push(home);
    const config = join(home, 'boternity.json');
    await writeFile(config, JSON.stringify({ mcpServers: {}, ...rest }));
    const seen: string[] = [];
    const record = (): ProcessTuning => {
      seen.push('tuned');
      return { started: () => seen.push('started'), stop: () => seen.push('stopped') };
    };
    const service = await startService({
      home,
      config,
      port: 0,
      env: { ...process.env, BOTERNITY_ADMIN_TOKEN: 'tune-test' },
      log: pino({ level: 'silent' }),
      ...(give ? { tuneProcess: record } : {}),
    });
    seen.push('running');
    await service.stop();
    return seen;
  }

  it('tunes when given the tuning: before start-up ends, started once it has, stopped on stop', async () => {
    expect(await run({}, true)).toEqual(['tuned', 'started', 'running', 'stopped']);
  });

  it('leaves the process alone with runtime.tuneProcess false, even when given the tuning', async () => {
    expect(await run({ runtime: { tuneProcess: false } }, true)).toEqual(['running']);
  });

  it('has nothing to tune with when not given it (the tests, the stdio bridge)', async () => {
    expect(await run({ runtime: { tuneProcess: true } }, false)).toEqual(['running']);
  });
});
