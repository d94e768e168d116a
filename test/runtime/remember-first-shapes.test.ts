/** Feedback from a function's first call: a shape met once, early, does not deoptimize it later. */
import { describe, expect, it } from 'vitest';
import { runNodeScript } from '../support/node-script.js';

// A call-path step met once with a `tools/list`-like message (no params), then hundreds of
// times with `tools/call`-like ones, optimized, and handed the first shape again.
const script = `
import { rememberFirstShapes } from './dist/src/runtime/remember-first-shapes.js';
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

const run = (mode: 'remember' | 'default') =>
  runNodeScript<{ optimized: boolean }>(script, mode, ['--allow-natives-syntax']);

describe('rememberFirstShapes', () => {
  it('keeps a function optimized when a shape it met before its feedback existed comes back', () => {
    expect(run('default').optimized).toBe(false);
    expect(run('remember').optimized).toBe(true);
  });
});
