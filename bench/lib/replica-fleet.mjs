// Replicas for the cluster bench (issue 22): `count` `bnity serve` processes on one
// PostgreSQL database, each on a port and home of its own that it keeps across a restart (so
// the round-robin balancer in front finds it where it was), with stop (SIGTERM, drained),
// kill (SIGKILL) and start again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRoundRobinProxy } from '../../test/support/round-robin-proxy.ts';
import { freePort } from './build-side.mjs';
import { spawnServe } from './spawn-serve.mjs';

/** Start the fleet and its balancer; `close()` stops both and removes the homes. */
export async function startReplicaFleet({ count, config, token, env }) {
  const replicas = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const home = mkdtempSync(join(tmpdir(), `bnity-bench-replica-${i}-`));
    const replica = {
      name: `r${i}`,
      url: `http://127.0.0.1:${port}`,
      serve: null,
      /** Start it (again) on its port and home; resolves once it serves. */
      async start() {
        replica.serve = await spawnServe({
          config,
          token,
          env: { ...env, BOTERNITY_REPLICA_ID: replica.name },
          port,
          home,
        });
      },
      /** SIGTERM and wait for its exit: it stops listening, then finishes its requests in flight. */
      async stop() {
        await replica.serve?.stop();
        replica.serve = null;
      },
      /** SIGKILL: no word to anyone. Resolves once it is gone. */
      async kill() {
        const { child } = replica.serve;
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await gone;
        replica.serve = null;
      },
      home,
    };
    await replica.start();
    replicas.push(replica);
  }
  const proxy = await startRoundRobinProxy(replicas.map((r) => r.url));
  return {
    replicas,
    proxy,
    async close() {
      await proxy.close();
      for (const r of replicas) {
        await r.stop();
        rmSync(r.home, { recursive: true, force: true });
      }
    },
  };
}
