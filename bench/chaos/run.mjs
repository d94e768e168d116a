#!/usr/bin/env node
// `npm run chaos`: every scenario of bench/chaos/scenarios in turn (CHAOS_ONLY=a,b picks),
// each against a fresh `bnity serve` on 127.0.0.1, each bounded by its own time limit.
// Figures go to bench/results/chaos-<scenario>-<time>.json; a summary is printed.
import { loadavg } from 'node:os';
import { startService, within, writeResult } from './harness.mjs';
import auditCap from './scenarios/audit-cap.mjs';
import auditKill9 from './scenarios/audit-kill9.mjs';
import bigBodies from './scenarios/big-bodies.mjs';
import crashLoop from './scenarios/crash-loop.mjs';
import fairness from './scenarios/fairness.mjs';
import flood from './scenarios/flood.mjs';
import flood3 from './scenarios/flood3.mjs';
import garbage from './scenarios/garbage.mjs';
import handEdits from './scenarios/hand-edits.mjs';
import hugeAnswer from './scenarios/huge-answer.mjs';
import hugeHttpAnswer from './scenarios/huge-http-answer.mjs';
import kill9 from './scenarios/kill9.mjs';
import noInit from './scenarios/no-init.mjs';
import oversizedPosts from './scenarios/oversized-posts.mjs';
import pinChurn from './scenarios/pin-churn.mjs';
import sessions from './scenarios/sessions.mjs';
import sigstop from './scenarios/sigstop.mjs';
import slowReader from './scenarios/slow-reader.mjs';

const ALL = [
  kill9,
  sigstop,
  flood,
  flood3,
  garbage,
  hugeAnswer,
  hugeHttpAnswer,
  noInit,
  crashLoop,
  sessions,
  bigBodies,
  oversizedPosts,
  handEdits,
  slowReader,
  pinChurn,
  auditKill9,
  auditCap,
  fairness,
];
const only = (process.env.CHAOS_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = only.filter((name) => !ALL.some((s) => s.name === name));
if (unknown.length > 0) {
  process.stderr.write(`chaos: unknown scenario ${unknown.join(', ')}; known: ${ALL.map((s) => s.name).join(', ')}\n`);
  process.exit(2);
}
const picked = only.length > 0 ? ALL.filter((s) => only.includes(s.name)) : ALL;

const summary = [];
const services = [];
// Interrupted: stop what runs (each stop is bounded) instead of leaving it behind.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    process.stderr.write(`chaos: ${signal}, stopping ${services.length} service(s)\n`);
    void Promise.all(services.map((s) => (s.exit() === null ? s.stop({ graceMs: 5_000 }) : null))).then(() =>
      process.exit(130),
    );
  });
}
for (const scenario of picked) {
  process.stdout.write(`chaos: ${scenario.name}: ${scenario.what}\n`);
  services.length = 0;
  const start = async (config, options) => {
    const service = await startService(config, options);
    services.push(service);
    return service;
  };
  const began = performance.now();
  const outcome = await within(scenario.run({ start }), scenario.timeoutMs);
  // Whatever happened, nothing of this scenario outlives it (stop() is idempotent enough:
  // a stopped service's process is gone and its marker finds nothing).
  const cleanup = await Promise.all(services.map((s) => (s.exit() === null ? s.stop() : null)));
  const figures = {
    scenario: scenario.name,
    what: scenario.what,
    at: new Date().toISOString(),
    node: process.version,
    bnity: process.env.BNITY_BIN ?? 'this checkout',
    // The machine is shared: the load average says how much the figures can be trusted.
    loadavg: loadavg().map((x) => Math.round(x * 10) / 10),
    durationS: Math.round((performance.now() - began) / 100) / 10,
    ...(outcome.timedOut
      ? { status: 'timeout', timeoutMs: scenario.timeoutMs, cleanup }
      : outcome.error
        ? { status: 'error', error: String(outcome.error?.stack ?? outcome.error), cleanup }
        : { status: 'done', ...outcome.value }),
  };
  const file = writeResult(`chaos-${scenario.name}`, figures);
  summary.push({ scenario: scenario.name, status: figures.status, durationS: figures.durationS, file });
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}
process.stdout.write('\nchaos summary\n');
for (const row of summary)
  process.stdout.write(`  ${row.scenario.padEnd(12)} ${row.status.padEnd(8)} ${row.durationS} s  ${row.file}\n`);
