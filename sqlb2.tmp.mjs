import { createDb } from './dist/src/storage/create-db.js';
import { rmSync, mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
const rowsN = Number(process.env.ROWS ?? 50);
const cols = 'id,direction,event_type,server_name,bot_id,client_id,tool_name,input_hash,output_hash,duration_ms,success,error,sanitized,token_usage,timestamp';
const sql = `insert into mcp_audit (${cols}) values ` + Array.from({ length: rowsN }, () => '(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)').join(',') + ' on conflict do nothing';
for (const variant of (process.env.V ?? 'FULL,NORMAL,NORMAL-mem').split(',')) {
  rmSync('/tmp/i8perf/adb', { recursive: true, force: true }); mkdirSync('/tmp/i8perf/adb');
  const store = await createDb({ url: variant.endsWith('mem') ? ':memory:' : 'file:/tmp/i8perf/adb/x.db' });
  await store.client.execute(`PRAGMA synchronous = ${variant.split('-')[0]}`);
  const args = () => { const a = []; for (let r = 0; r < rowsN; r++) a.push(randomUUID(), 'server', 'tool_call', 'up', null, 'admin', 'echo', 'a'.repeat(64), 'b'.repeat(64), 1, 1, null, 0, null, Date.now()); return a; };
  for (let i = 0; i < 20; i++) await store.client.execute({ sql, args: args() });
  const cpu0 = process.cpuUsage(); const t0 = performance.now(); const N = 100;
  for (let i = 0; i < N; i++) await store.client.execute({ sql, args: args() });
  const c = process.cpuUsage(cpu0);
  console.log(variant, rowsN, 'rows: wall µs/row', ((performance.now() - t0) * 1000 / N / rowsN).toFixed(1), 'cpu µs/row', ((c.user + c.system) / N / rowsN).toFixed(1));
  await store.close();
}
