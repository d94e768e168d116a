// The audit's byte cap (issue 17): agents call without pause for SECONDS with the cap at
// CAP bytes (`audit.maxBytes`), then the cap is lowered to a quarter by a hot reload and
// the calls go on for SECONDS/3: the database file's size (and its WAL's) sampled every
// second, the rows left, and what /metrics says. CHAOS_AUDIT_MAX_BYTES=none leaves the key
// out (an older build, whose config schema does not know it).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { allConnected, mb, sleep, stdioServer, TINY } from '../harness.mjs';

const SECONDS = Number(process.env.CHAOS_AUDIT_CAP_SECONDS ?? 60);
const CALLERS = Number(process.env.CHAOS_AUDIT_CALLERS ?? 8);
const CAP =
  process.env.CHAOS_AUDIT_MAX_BYTES === 'none' ? null : Number(process.env.CHAOS_AUDIT_MAX_BYTES ?? 2 * 2 ** 20);

const sizeOf = (file) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

export default {
  name: 'audit-cap',
  what: `calls without pause for ${SECONDS} s with audit.maxBytes ${CAP === null ? 'unset' : CAP}, then ${Math.round(SECONDS / 3)} s with a quarter of it`,
  timeoutMs: 90_000 + SECONDS * 3_000,
  async run({ start }) {
    const config = (cap) => (marker) => ({
      mcpServers: { up: stdioServer(TINY, marker) },
      ...(cap === null ? {} : { audit: { maxBytes: cap } }),
    });
    const service = await start(config(CAP));
    if (!(await allConnected(service, ['up']))) return { error: 'upstream did not connect' };
    const db = join(service.home, 'boternity.db');
    const samples = [];
    let phase = 'full';
    const sample = () => samples.push({ phase, db: sizeOf(db), wal: sizeOf(`${db}-wal`) });
    const sampler = setInterval(sample, 1_000);
    let loading = true;
    let answered = 0;
    const clients = await Promise.all(Array.from({ length: CALLERS }, () => service.client()));
    const load = clients.map(async (client, c) => {
      for (let i = 0; loading; i++) {
        try {
          await client.callTool({ name: 'up__echo', arguments: { text: `c${c}-${i}` } }, undefined, {
            timeout: 10_000,
          });
          answered += 1;
        } catch {
          await sleep(50);
        }
      }
    });
    await sleep(SECONDS * 1_000);
    const afterFull = answered;
    if (CAP !== null) {
      phase = 'lowered';
      service.writeConfig(config(Math.max(2 ** 20, Math.round(CAP / 4))));
    }
    await sleep((SECONDS / 3) * 1_000);
    loading = false;
    await Promise.all(load);
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    phase = 'idle';
    await sleep(3_000);
    clearInterval(sampler);
    sample();
    const metrics = await service.api('/metrics');
    const figure = (name) => {
      const line = String(metrics.body)
        .split('\n')
        .find((l) => l.startsWith(`${name} `));
      return line ? Number(line.split(' ')[1]) : null;
    };
    const inPhase = (p) => samples.filter((s) => s.phase === p);
    const maxMb = (list, key) => mb(Math.max(0, ...list.map((s) => s[key])));
    const stopped = await service.stop();
    return {
      capBytes: CAP,
      callers: CALLERS,
      answered: { full: afterFull, lowered: answered - afterFull },
      // The database file holds what was checkpointed; the WAL the rest (up to ~4 MB).
      dbMb: {
        maxFull: maxMb(inPhase('full'), 'db'),
        endFull: mb(inPhase('full').at(-1)?.db ?? 0),
        maxLowered: maxMb(inPhase('lowered'), 'db'),
        final: mb(samples.at(-1)?.db ?? 0),
      },
      walMb: { max: maxMb(samples, 'wal'), final: mb(samples.at(-1)?.wal ?? 0) },
      dbAndWalMb: { max: mb(Math.max(0, ...samples.map((s) => s.db + s.wal))) },
      metrics: {
        auditBytes: figure('boternity_audit_bytes'),
        maxBytes: figure('boternity_audit_max_bytes'),
        rowsDropped: figure('boternity_audit_rows_dropped_total'),
      },
      dbMbEverySecond: samples.map((s) => mb(s.db)),
      walMbEverySecond: samples.map((s) => mb(s.wal)),
      stop: stopped,
    };
  },
};
