/** Feedback from a function's first call: a shape met once, early, does not deoptimize it later. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// A call-path step met once with a `tools/list`-like message (no params), then hundreds of
// times with `tools/call`-like ones, optimized, and handed the first shape again.
const script = `
import { rememberFirstShapes } from './src/runtime/remember-first-shapes.ts';
if (process.argv[1] === 'remember') rememberFirstShapes();
function step(message) {
  return message.method.length + (message.id ?? 0) + (message.params === undefined ? 0 : 1);
}
let total = step({ method: 'tools/list', jsonrpc: '2.0', id: 1 });
for (let i = 0; i < 50; i++) total += step({ method: 'tools/call', params: { name: 'echo' }, jsonrpc: '2.0', id: i });
%PrepareFunctionForOptimization(step);
for (let i = 0; i < 50; i++) total += step({ method: 'tools/call', params: { name: 'echo' }, jsonrpc: '2.0', id: i });
%OptimizeFunctionOnNextCall(step);
total += step({ method: 'tools/call', params: { name: 'echo' }, jsonrpc: '2.0', id: 2 });
total += step({ method: 'tools/list', jsonrpc: '2.0', id: 3 });
const optimized = (%GetOptimizationStatus(step) & 16) !== 0;
process.stdout.write(JSON.stringify({ optimized, total }));
`;

const run = (mode: 'remember' | 'default') => {
  const child = spawnSync(
    process.execPath,
    ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script, mode],
    { encoding: 'utf8', cwd: `${import.meta.dirname}/../..` },
  );
  // An unknown V8 flag is reported on stderr (a Node whose V8 dropped it would say so here).
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as { optimized: boolean };
};

describe('rememberFirstShapes', () => {
  it('keeps a function optimized when a shape it met before its feedback existed comes back', () => {
    expect(run('default').optimized).toBe(false);
    expect(run('remember').optimized).toBe(true);
  });
});
