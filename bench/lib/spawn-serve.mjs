// `bnity serve` as a real process for the benches: a temp home, `config` written there (or
// none: the service then writes its default one), port 0, the admin token `token`; resolves
// with its base URL once it printed it. `nodeArgs` go to its node (e.g. --cpu-prof); `env` is added to its environment.
// `port` and `home` (kept at stop) start it where a replica stopped before was, for a restart.
// `bin`: another checkout's bin/bnity.js (bench/paired-builds.mjs), this one's by default.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ownBin = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'bnity.js');

export async function spawnServe({
  config,
  token,
  nodeArgs = [],
  env = {},
  port = 0,
  home: given = null,
  bin = ownBin,
}) {
  const home = given ?? mkdtempSync(join(tmpdir(), 'bnity-bench-'));
  const configPath = join(home, 'boternity.json');
  if (config) writeFileSync(configPath, JSON.stringify(config));
  const args = ['serve', '--port', String(port), ...(config ? ['--config', configPath] : [])];
  const t0 = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, bin, ...args], {
    env: {
      ...process.env,
      BOTERNITY_CONFIG: '',
      BOTERNITY_HOME: home,
      BOTERNITY_ADMIN_TOKEN: token,
      BOTERNITY_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /control API\s+(http:\/\/\S+)\/api\/servers/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  const stop = async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
    if (!given) rmSync(home, { recursive: true, force: true });
  };
  return { t0, child, url, stop };
}
