/** A stop undoes every step, last first, and keeps to its budget when a step never finishes. */
import { describe, expect, it } from 'vitest';
import { STOP_SLACK_MS, stopBudget, unwindSteps } from '../../src/start/unwind-steps.js';

const FLOOR_MS = 200;

const logger = () => {
  const warnings: { fields: object; message: string }[] = [];
  return { warnings, log: { warn: (fields: object, message: string) => warnings.push({ fields, message }) } };
};

describe('unwindSteps', () => {
  it('runs every step last first, past one that throws and one that rejects, and empties the list', async () => {
    const ran: string[] = [];
    const steps = [
      () => ran.push('lock'),
      async () => {
        ran.push('rejects');
        throw new Error('no database');
      },
      () => {
        ran.push('throws');
        throw new Error('gone');
      },
      async () => ran.push('http'),
    ];
    const { warnings, log } = logger();
    await unwindSteps(steps, log, { budgetMs: 5_000, floorMs: FLOOR_MS });
    expect(ran).toEqual(['http', 'throws', 'rejects', 'lock']);
    expect(steps).toEqual([]);
    expect(warnings.map((w) => w.message)).toEqual([
      'a shutdown step failed; going on',
      'a shutdown step failed; going on',
    ]);
  });

  it('leaves a step that never finishes once the budget is spent; the steps after it still run', async () => {
    const ran: string[] = [];
    const { warnings, log } = logger();
    const started = Date.now();
    await unwindSteps(
      [
        () => ran.push('lock'),
        () => new Promise(() => ran.push('hangs too')),
        () => new Promise(() => ran.push('hangs')),
        () => ran.push('first'),
      ],
      log,
      { budgetMs: 50, floorMs: FLOOR_MS },
    );
    expect(ran).toEqual(['first', 'hangs', 'hangs too', 'lock']);
    expect(warnings.map((w) => w.message)).toEqual([
      'a shutdown step did not finish in time; going on without it',
      'a shutdown step did not finish in time; going on without it',
    ]);
    // Past the budget (50 ms), each hanging step had the floor, no more.
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(2 * FLOOR_MS);
    expect(elapsed).toBeLessThan(2 * FLOOR_MS + 1_000);
  });

  it('does not report a late failure of a step it left behind', async () => {
    const { warnings, log } = logger();
    let fail!: (error: Error) => void;
    await unwindSteps([() => new Promise((_, reject) => (fail = reject))], log, { budgetMs: 10, floorMs: FLOOR_MS });
    fail(new Error('answered at last, with an error'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toHaveLength(1);
  });

  it('budgets three graces and the slack, and floors each step at a grace and 2 s', () => {
    expect(stopBudget(3_000)).toEqual({ budgetMs: 9_000 + STOP_SLACK_MS, floorMs: 5_000 });
  });
});
