/**
 * Builds a fresh tool index over the fixture catalog five times over (2,000 tools) `BUILDS`
 * times (default 8), a forced full garbage collection before each and no index alive across
 * it, then prints `built N`: what `bench/tool-index.ts` does, run by
 * test/gateway/search/compiled-builds.test.ts under V8's deoptimization trace.
 * `node --expose-gc --import tsx test/support/tool-index-builds.ts`.
 * @module
 */
import { createToolIndex, type IndexedTool } from '../../src/gateway/search/tool-index.js';
import { fixtureView } from './tool-catalog.js';

const base = fixtureView();
const many: IndexedTool[] = Array.from({ length: 5 }, (_, i) =>
  base.map((entry) => ({ ...entry, tool: { ...entry.tool, name: `${entry.tool.name}_${i}` } })),
).flat();
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with --expose-gc');
const builds = Number(process.env.BUILDS ?? 8);
for (let round = 0; round < builds; round++) {
  collect();
  // Printed before the build, so that the trace says which build threw code away.
  console.log(`build ${round}`);
  createToolIndex().sync(many);
}
console.log(`built ${builds}`);
