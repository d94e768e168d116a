/**
 * The tool search index's speed (issue 24, ADR 038): builds of a fresh index over the
 * fixture catalog five times over (2,000 tools), a garbage collection before each, and 400
 * queries; prints the fastest and the median build (wall time, and the process's CPU time,
 * which a loaded machine inflates less), the query p50, and the ranking's top-1 and top-3 on
 * the query set; and the first build alone: the process's first, its code not yet compiled
 * (what the first `search_tools` of a fresh gateway pays).
 * `node --expose-gc --import tsx bench/tool-index.ts`.
 * @module
 */
import { createToolIndex, type IndexedTool } from '../src/gateway/search/tool-index.js';
import { fixtureQueries, fixtureView } from '../test/support/tool-catalog.js';

const base = fixtureView();
const many: IndexedTool[] = Array.from({ length: 5 }, (_, i) =>
  base.map((entry) => ({ ...entry, tool: { ...entry.tool, name: `${entry.tool.name}_${i}` } })),
).flat();
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const builds: number[] = [];
const cpu: number[] = [];
for (let round = 0; round < 9; round++) {
  collect();
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  createToolIndex().sync(many);
  const used = process.cpuUsage(cpuStarted);
  builds.push(performance.now() - started);
  cpu.push((used.user + used.system) / 1000);
}
const index = createToolIndex();
index.sync(many);
const queries: number[] = [];
for (let i = 0; i < 400; i++) {
  const started = performance.now();
  index.search(i % 2 ? 'open an issue about the login bug' : 'which pods are running', 10);
  queries.push(performance.now() - started);
}
const ranked = createToolIndex();
ranked.sync(base);
let top1 = 0;
let top3 = 0;
const set = fixtureQueries();
for (const [query, right] of set) {
  const found = ranked.search(query, 3);
  if (found instanceof Error) throw found;
  if (right.includes(found[0]?.name as string)) top1 += 1;
  if (found.some((hit) => right.includes(hit.name))) top3 += 1;
}
console.log(
  `builds in order, wall ms: ${builds.map((b) => b.toFixed(1)).join(' ')}; CPU ms: ${cpu.map((c) => c.toFixed(1)).join(' ')}`,
);
const [first, firstCpu] = [builds[0] as number, cpu[0] as number];
builds.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
queries.sort((a, b) => a - b);
console.log(
  `${many.length} tools: build fastest ${builds[0]?.toFixed(1)} ms, median ${builds[4]?.toFixed(1)} ms ` +
    `(CPU fastest ${cpu[0]?.toFixed(1)} ms, median ${cpu[4]?.toFixed(1)} ms); ` +
    `query p50 ${queries[200]?.toFixed(3)} ms; ranking top-1 ${top1}, top-3 ${top3} of ${set.length}; ` +
    `first build (cold code) ${first.toFixed(1)} ms, CPU ${firstCpu.toFixed(1)} ms`,
);
