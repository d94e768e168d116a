// The audit's own CPU per answered call (issue 17, ADR 021), in-process on a SQLite file:
// one entry per turn of the event loop, as sequential calls give it.
//   record  the batched path (before: rows queued, hashed after the turn, written each 100 ms)
//   commit  the journaled path (after: hashed and appended to the journal before the answer)
//   insert  a group commit per turn (the design not taken: the turn's rows INSERTed before the answers)
// `node --import tsx bench/audit-cost.mjs` (ENTRIES, default 20,000; ROUNDS, default 3).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuditWriter } from '../src/storage/audit-writer.ts';
import { createDb } from '../src/storage/create-db.ts';

const ENTRIES = Number(process.env.ENTRIES ?? 20_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const entry = (i) => ({
  direction: 'server',
  eventType: 'tool_call',
  serverName: 'up',
  toolName: 'echo',
  clientId: 'admin',
  clientName: 'bench/1.0',
  input: { text: `hello ${i}` },
  output: { content: [{ type: 'text', text: `hello ${i}` }] },
  durationMs: 1,
  success: true,
});
const turn = () => new Promise((resolve) => setImmediate(resolve));
const cpu = (from) => {
  const { user, system } = process.cpuUsage(from);
  return user + system;
};

async function measure(mode) {
  const dir = mkdtempSync(join(tmpdir(), 'bnity-audit-cost-'));
  const store = await createDb({ url: `file:${join(dir, 'a.db')}` });
  const writer = createAuditWriter(store.db, {
    log: console,
    client: store.writer,
    ...(mode === 'commit' ? { journalPath: join(dir, 'a.db-audit') } : {}),
  });
  const one = async (i) => {
    if (mode === 'commit') writer.commit(entry(i));
    else writer.record(entry(i));
    if (mode === 'insert') await writer.flush();
    await turn();
  };
  for (let i = 0; i < 3_000; i++) await one(i);
  await writer.flush();
  // The loop's own cost, taken off.
  const idle = process.cpuUsage();
  for (let i = 0; i < ENTRIES; i++) await turn();
  const loop = cpu(idle);
  const started = process.cpuUsage();
  for (let i = 0; i < ENTRIES; i++) await one(i);
  await writer.flush();
  const used = cpu(started) - loop;
  await writer.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return used / ENTRIES;
}

const figures = { record: [], commit: [], insert: [] };
for (let r = 0; r < ROUNDS; r++) for (const mode of Object.keys(figures)) figures[mode].push(await measure(mode));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const { loadavg } = await import('node:os');
console.log(
  JSON.stringify(
    {
      entries: ENTRIES,
      rounds: ROUNDS,
      loadavg: loadavg().map((x) => Math.round(x * 10) / 10),
      cpuMicrosPerEntry: Object.fromEntries(
        Object.entries(figures).map(([mode, xs]) => [
          mode,
          { median: Math.round(median(xs) * 10) / 10, runs: xs.map((x) => Math.round(x)) },
        ]),
      ),
    },
    null,
    2,
  ),
);
