// An upstream whose tool list changes every 100 ms, with 400 KB descriptions and a new tool
// name at each change, for PIN_CHURN_SECONDS: what the rug-pull pins keep (tool_pins rows
// and bytes), how many tool_quarantined events and audit rows it costs, and how the
// database file grows. Bounded means flat after the first window, whatever the duration.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { allConnected, countBy, cpuTicks, mb, sleep, stdioServer, UPSTREAMS } from '../harness.mjs';

const SECONDS = Number(process.env.PIN_CHURN_SECONDS ?? 60);
const SAMPLE_EVERY_S = Math.max(1, Math.min(10, Math.round(SECONDS / 6)));

export default {
  name: 'pin-churn',
  what: `an upstream changing its tools (400 KB descriptions, a new name each time) every 100 ms for ${SECONDS} s`,
  timeoutMs: 90_000 + SECONDS * 2_000,
  async run({ start }) {
    const service = await start((marker) => ({
      mcpServers: { churn: stdioServer(join(UPSTREAMS, 'pin-churn.mjs'), marker) },
    }));
    if (!(await allConnected(service, ['churn'])))
      return { error: 'churn did not connect', log: service.log().slice(-1_000) };
    const events = followEvents(service);
    const db = createClient({ url: `file:${join(service.home, 'boternity.db')}` });
    const samples = [];
    const cpuBefore = cpuTicks(service.pid);
    const began = performance.now();
    for (;;) {
      const t = Math.round((performance.now() - began) / 1_000);
      samples.push({ t, ...(await measure(db, service.home)), events: events.count('tool_quarantined') });
      if (t >= SECONDS) break;
      await sleep(Math.min(SAMPLE_EVERY_S * 1_000, (SECONDS - t) * 1_000));
    }
    const cpuPercent = Math.round(((cpuTicks(service.pid) - cpuBefore) / 100 / SECONDS) * 100);
    const server = await service.server('churn');
    const quarantines = await service.api('/api/quarantines', { timeoutMs: 15_000 });
    const rss = service.rssMb();
    events.stop();
    db.close();
    const log = service.log();
    const stopped = await service.stop();
    const first = samples[0];
    const last = samples.at(-1);
    return {
      seconds: SECONDS,
      samples,
      growth: {
        pinRows: last.pinRows - first.pinRows,
        pinMb: Math.round((last.pinMb - first.pinMb) * 100) / 100,
        pinKb: last.pinKb - first.pinKb,
        dbFilesMb: Math.round((last.dbFilesMb - first.dbFilesMb) * 100) / 100,
        dbMb: Math.round((last.dbMb - first.dbMb) * 100) / 100,
        quarantineAuditRows: last.quarantineAuditRows - first.quarantineAuditRows,
        quarantinedEvents: last.events - first.events,
      },
      eventsByType: events.byType(),
      churnStatus: server ? pick(server, ['state', 'catalogChurning', 'toolCount']) : null,
      quarantinesAnswer: {
        status: quarantines.status,
        held: quarantines.body?.quarantines?.length ?? null,
        kb: Math.round(JSON.stringify(quarantines.body ?? '').length / 1024),
      },
      serviceCpuPercent: cpuPercent,
      rssMb: rss,
      warnLinesInLog: log.split('\n').filter((l) => /"level":(40|50)/.test(l)).length,
      logKinds: countBy(log.split('\n').flatMap((l) => (/"msg":"([^"]*)"/.exec(l) ?? []).slice(1))),
      stop: stopped,
    };
  },
};

const pick = (object, keys) => Object.fromEntries(keys.map((k) => [k, object[k] ?? null]));

/** tool_pins rows and bytes, audit rows of pin changes, and the size of the database files. */
async function measure(db, home) {
  const pins = await db.execute(
    `select count(*) as n, coalesce(sum(length(server_name) + length(tool_name) + length(hash)
       + coalesce(length(pending_hash), 0) + coalesce(length(fields), 0) + coalesce(length(pending_fields), 0)), 0) as bytes
     from tool_pins`,
  );
  const audit = await db.execute(
    `select count(*) as n from mcp_audit where event_type in ('tool_quarantined', 'catalog_churn')`,
  );
  const size = (file) => {
    try {
      return statSync(join(home, file)).size;
    } catch {
      return 0;
    }
  };
  return {
    pinRows: Number(pins.rows[0].n),
    pinMb: mb(Number(pins.rows[0].bytes)),
    pinKb: Math.round(Number(pins.rows[0].bytes) / 1024),
    quarantineAuditRows: Number(audit.rows[0].n),
    // The WAL is reused after each checkpoint (every 1,000 pages): it grows to about 4 MB, not more.
    dbFilesMb: mb(size('boternity.db') + size('boternity.db-wal')),
    dbMb: mb(size('boternity.db')),
    walMb: mb(size('boternity.db-wal')),
  };
}

/** Count the events of /api/events by type until stopped. */
function followEvents(service) {
  const counts = {};
  const controller = new AbortController();
  void (async () => {
    const response = await fetch(`${service.url}/api/events`, { headers: service.auth, signal: controller.signal });
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of response.body) {
      buffered += decoder.decode(chunk, { stream: true });
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const type = /^event: (.+)$/.exec(line)?.[1];
        if (type) counts[type] = (counts[type] ?? 0) + 1;
      }
    }
  })().catch(() => undefined);
  return {
    count: (type) => counts[type] ?? 0,
    byType: () => ({ ...counts }),
    stop: () => controller.abort(),
  };
}
