#!/usr/bin/env node
// Start-up time of `bnity` commands (issue 7, issue 8's "--help in ≤ 300 ms"): `--help` of
// every command, and `bnity mcp list --json` with and without a running service. Each
// command runs RUNS times (default 10) as a real process; prints the median and the slowest
// wall time and the median CPU time (user + system) per command, and `node -e 0` for scale.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'bnity.js');
const RUNS = Number(process.env.RUNS ?? 10);
const TOKEN = 'bench-token';

/** Every command path, read from the completion script's table (so none is forgotten). */
function commandPaths() {
  const script = spawnSync(process.execPath, [bin, 'completion', 'bash'], { encoding: 'utf8' }).stdout;
  const paths = /case "\$_bn" in\n\s+(.*)\) _bp=/.exec(script)?.[1] ?? '';
  return paths.split('|').map((p) => p.replaceAll("'", ''));
}

/** Median and max wall ms, and median CPU ms, of `RUNS` runs of `node args`. */
function measure(args, env = process.env) {
  const walls = [];
  const cpus = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const r = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, ...args], { env, encoding: 'utf8' });
    walls.push(performance.now() - t0);
    const [user, sys] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
    cpus.push((user + sys) * 1000);
    if (r.status !== 0 && !args.includes('--help'))
      throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { median: median(walls), max: Math.max(...walls), cpu: median(cpus) };
}

async function withService(fn) {
  const home = mkdtempSync(join(tmpdir(), 'bnity-cli-bench-'));
  const config = join(home, 'boternity.json');
  writeFileSync(config, JSON.stringify({ mcpServers: {} }));
  const env = { ...process.env, BOTERNITY_HOME: home, BOTERNITY_ADMIN_TOKEN: TOKEN, BOTERNITY_LOG_LEVEL: 'warn' };
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--config', config], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const match = /control API\s+(http:\/\/\S+)\/api\/servers/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  try {
    return fn({ ...env, BOTERNITY_URL: url });
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(home, { recursive: true, force: true });
  }
}

const rows = [['node -e 0', measure(['-e', '0'])]];
for (const path of commandPaths()) {
  const args = [...(path ? path.split(' ') : []), '--help'];
  rows.push([`bnity ${args.join(' ')}`, measure([bin, ...args])]);
}
const idle = mkdtempSync(join(tmpdir(), 'bnity-cli-bench-'));
writeFileSync(join(idle, 'boternity.json'), JSON.stringify({ mcpServers: {} }));
// A port nothing listens on: the command falls back to the file.
const free = createServer();
await new Promise((r) => free.listen(0, '127.0.0.1', r));
const port = String(free.address().port);
await new Promise((r) => free.close(r));
const offline = { ...process.env, BOTERNITY_HOME: idle, BOTERNITY_PORT: port, BOTERNITY_URL: '', BOTERNITY_CONFIG: '' };
rows.push(['bnity mcp list --json (no service)', measure([bin, 'mcp', 'list', '--json'], offline)]);
rmSync(idle, { recursive: true, force: true });
rows.push([
  'bnity mcp list --json (service)',
  await withService((env) => measure([bin, 'mcp', 'list', '--json'], env)),
]);

const width = Math.max(...rows.map(([name]) => name.length));
console.log(`${RUNS} runs each; ms\n`);
console.log(`| ${'command'.padEnd(width)} | median | max | CPU median |`);
console.log(`| ${'-'.repeat(width)} | ---: | ---: | ---: |`);
for (const [name, m] of rows)
  console.log(`| ${name.padEnd(width)} | ${m.median.toFixed(0)} | ${m.max.toFixed(0)} | ${m.cpu.toFixed(0)} |`);
