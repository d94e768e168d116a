/** V8's interrupt budget: a function the service runs once a request is optimized within a few hundred runs. */
import { describe, expect, it } from 'vitest';
import { runNodeScript } from '../support/node-script.js';

// A function of the size of a call-path step, run `runs` times; then whether V8 optimized it.
const script = `
import { tierUpSooner } from './dist/src/runtime/tier-up-sooner.js';
if (process.argv[1] === 'sooner') tierUpSooner();
function step(request) {
  const out = { id: request.id, names: [] };
  for (const key of Object.keys(request.params)) if (key.length < 20) out.names.push(key.toUpperCase());
  return JSON.stringify(out).length + (request.params.text ?? '').length;
}
let total = 0;
for (let i = 0; i < 400; i++) total += step({ id: i, params: { name: 'echo', text: 'hello', n: i } });
const optimized = (%GetOptimizationStatus(step) & 16) !== 0;
process.stdout.write(JSON.stringify({ optimized, total }));
`;

const run = (mode: 'sooner' | 'default') =>
  runNodeScript<{ optimized: boolean }>(script, mode, ['--allow-natives-syntax', '--no-concurrent-recompilation']);

describe('tierUpSooner', () => {
  it('has V8 optimize a function run 400 times, which its default budget leaves unoptimized', () => {
    expect(run('default').optimized).toBe(false);
    expect(run('sooner').optimized).toBe(true);
  });
});
