/** The idle trim's deep collection: code of idle functions flushed, flags set only during it. */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectDeeply } from '../../src/runtime/collect-deeply.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const oldSpaceUsed = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0;

describe('collectDeeply', () => {
  it('drops the bytecode of functions that ran and are idle; they compile again and still work', () => {
    // 2,000 distinct functions, each with bytecode of its own once called.
    const fns = Array.from(
      { length: 2_000 },
      (_, i) => new Function('n', `let s = ${i}; for (let j = 0; j < n; j++) s += j * ${i + 1}; return s;`),
    ) as Array<(n: number) => number>;
    for (const fn of fns) fn(3);
    gc();
    const before = oldSpaceUsed();
    collectDeeply(gc);
    const dropped = before - oldSpaceUsed();
    // A plain `gc()` here frees nothing of theirs (a forced collection ages no code).
    expect(dropped).toBeGreaterThan(200_000);
    expect(fns.map((fn) => fn(3))).toEqual(fns.map((_, i) => i + 3 * (i + 1)));
  });

  it('sets its flags for the one collection and puts back V8 defaults, even when it throws', () => {
    const flags: string[] = [];
    const fail = () => {
      flags.push('gc');
      throw new Error('boom');
    };
    expect(() => collectDeeply(fail, { setFlag: (f) => flags.push(f), execArgv: [] })).toThrow('boom');
    expect(flags).toEqual([
      '--compact-on-every-full-gc',
      '--bytecode-old-age=0',
      '--flush-baseline-code',
      'gc',
      '--no-compact-on-every-full-gc',
      '--bytecode-old-age=5',
      '--no-flush-baseline-code',
    ]);
  });

  it("leaves alone a flag the operator gave on node's command line", () => {
    const flags: string[] = [];
    collectDeeply(() => flags.push('gc'), {
      setFlag: (f) => flags.push(f),
      execArgv: ['--bytecode_old_age=7', '--flush-baseline-code'],
    });
    expect(flags).toEqual(['--compact-on-every-full-gc', 'gc', '--no-compact-on-every-full-gc']);
  });
});
