// kill -9 of the SERVICE under load, ROUNDS (default 5) times on the same home (issue 17):
// agents call `echo` without pause through /mcp, each call with a unique argument; the
// service is killed at a random moment and started again. At the end, after a clean stop,
// every answered call's audit row is looked for by its input hash (SHA-256 of the
// canonical JSON of the arguments): answered calls without a row, per round.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { allConnected, round, sleep, stdioServer, TINY, within } from '../harness.mjs';

const ROUNDS = Number(process.env.CHAOS_AUDIT_ROUNDS ?? 5);
const CALLERS = Number(process.env.CHAOS_AUDIT_CALLERS ?? 4);
/** The load runs this long (ms, random between the two) before the kill. */
const LOAD_MS = [
  Number(process.env.CHAOS_AUDIT_LOAD_MIN_MS ?? 500),
  Number(process.env.CHAOS_AUDIT_LOAD_MAX_MS ?? 2_000),
];

// The canonical JSON of `{ text }` is its JSON: one key.
const inputHash = (text) => createHash('sha256').update(JSON.stringify({ text })).digest('hex');

export default {
  name: 'audit-kill9',
  what: `kill -9 of the service under load ${ROUNDS} times (${CALLERS} callers), then every answered call's audit row looked for`,
  timeoutMs: 60_000 + ROUNDS * 45_000,
  async run({ start }) {
    const home = mkdtempSync(join(tmpdir(), 'bnity-chaos-audit-'));
    const config = (marker) => ({ mcpServers: { up: stdioServer(TINY, marker) } });
    try {
      const rounds = [];
      for (let r = 0; r < ROUNDS; r++) {
        const service = await start(config, { home });
        if (!(await allConnected(service, ['up']))) return { error: `round ${r}: upstream did not connect` };
        const answered = [];
        let failed = 0;
        let loading = true;
        const clients = await Promise.all(Array.from({ length: CALLERS }, () => service.client()));
        const load = clients.map(async (client, c) => {
          for (let i = 0; loading; i++) {
            const text = `r${r}-c${c}-${i}`;
            try {
              // Answered, a result or an isError result alike: either has its row.
              await client.callTool({ name: 'up__echo', arguments: { text } }, undefined, { timeout: 10_000 });
              answered.push(text);
            } catch {
              failed += 1;
              if (service.exit() !== null) return;
            }
          }
        });
        const loadMs = LOAD_MS[0] + Math.random() * (LOAD_MS[1] - LOAD_MS[0]);
        await sleep(loadMs);
        process.kill(service.pid, 'SIGKILL');
        await within(service.exited, 10_000);
        loading = false;
        await within(Promise.all(load), 15_000);
        await Promise.all(
          clients.map((client) =>
            within(
              client.close().catch(() => undefined),
              2_000,
            ),
          ),
        );
        // The journal's own directory beside the database (ADR 021, amended).
        const journal = readdirSync(join(home, 'boternity.db-audit')).filter((name) =>
          name.startsWith('segment.'),
        ).length;
        rounds.push({
          round: r,
          loadMs: Math.round(loadMs),
          answered,
          failedAfterKill: failed,
          journalSegments: journal,
        });
      }
      // One more start reads back what the last kill left; a clean stop writes everything.
      const last = await start(config, { home });
      await allConnected(last, ['up']);
      const stopped = await last.stop();
      const db = createClient({ url: `file:${join(home, 'boternity.db')}` });
      const rows = await db.execute("select input_hash from mcp_audit where event_type = 'tool_call'");
      db.close();
      const stored = new Set(rows.rows.map((row) => row.input_hash));
      const perRound = rounds.map(({ answered, ...rest }) => {
        const missing = answered.filter((text) => !stored.has(inputHash(text))).length;
        return { ...rest, answered: answered.length, withoutRow: missing };
      });
      const answered = perRound.reduce((sum, r) => sum + r.answered, 0);
      const withoutRow = perRound.reduce((sum, r) => sum + r.withoutRow, 0);
      return {
        rounds: ROUNDS,
        callers: CALLERS,
        answered,
        withoutRow,
        withoutRowPerRound: perRound.map((r) => r.withoutRow),
        withoutRowShare: round((100 * withoutRow) / Math.max(1, answered), 2),
        perRound,
        finalStop: stopped,
      };
    } finally {
      if (!process.env.CHAOS_KEEP) rmSync(home, { recursive: true, force: true });
    }
  },
};
