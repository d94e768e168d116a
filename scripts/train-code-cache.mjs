#!/usr/bin/env node
// The last step of `npm run build` (ADR 033): start the service just built on a free port of
// 127.0.0.1 with one stdio server (scripts/train-upstream.mjs), make the calls of an agent's
// first minute (initialize, tools/list, tools/call; the control API's server list), stop it,
// and let bin/bnity.js record the bytecode V8 compiled meanwhile as dist/bnity.cjs.cache.
// The process tuning is off in this run: it changes V8 flags, and V8 accepts a cache only
// under the flags it was made with (those of a `bnity serve` loading its bundle: bin/bnity.js
// sets the one it sets before that again before it records the cache).
// A failed training is said and does not fail the build: the service then compiles its
// bundle at each start, as it did before the cache.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cacheFile = join(root, 'dist', 'bnity.cjs.cache');
const TIMEOUT_MS = 60_000;
const home = mkdtempSync(join(tmpdir(), 'bnity-train-'));
const token = randomBytes(24).toString('hex');
const config = join(home, 'config.json');
writeFileSync(
  config,
  JSON.stringify({
    mcpServers: { train: { command: process.execPath, args: [join(root, 'scripts', 'train-upstream.mjs')] } },
    runtime: { tuneProcess: false },
  }),
);
// The flags of a plain `node bin/bnity.js`: NODE_OPTIONS would be V8 flags of the training only.
const { NODE_OPTIONS: _flags, ...env } = process.env;
const child = spawn(
  process.execPath,
  [join(root, 'bin', 'bnity.js'), 'serve', '--config', config, '--home', home, '--host', '127.0.0.1', '--port', '0'],
  {
    env: { ...env, BOTERNITY_ADMIN_TOKEN: token, BOTERNITY_TRAIN_CODE_CACHE: '1', BOTERNITY_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let output = '';
child.stdout.on('data', (d) => (output += d));
child.stderr.on('data', (d) => (output += d));
const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);

/** Serve one agent's first calls through the service at `url`. */
async function train(url) {
  const headers = { authorization: `Bearer ${token}` };
  const client = new Client({ name: 'bnity-build', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  // The server may still be connecting: its tools are listed once it is.
  let echo = (await client.listTools()).tools.find((t) => t.name.endsWith('echo'));
  while (!echo) {
    if (child.exitCode !== null) throw new Error('the service ended');
    await new Promise((resolve) => setTimeout(resolve, 20));
    echo = (await client.listTools()).tools.find((t) => t.name.endsWith('echo'));
  }
  const result = await client.callTool({ name: echo.name, arguments: { text: 'hello' } });
  if (result.isError) throw new Error(`the call failed: ${JSON.stringify(result.content)}`);
  const servers = await fetch(`${url}/api/servers`, { headers });
  if (!servers.ok) throw new Error(`GET /api/servers answered ${servers.status}`);
  await client.close();
}

try {
  const url = await new Promise((resolve, reject) => {
    const look = () => {
      const match = /control API\s+(http:\/\/\S+)\/api\/servers/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout.on('data', look);
    void exited.then(() => reject(new Error('the service ended before it served')));
  });
  await train(url);
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`the service ended with ${code}`);
  if (!existsSync(cacheFile)) throw new Error('no cache was written');
  process.stdout.write(`code cache: ${Math.round(statSync(cacheFile).size / 1024)} KB of bytecode recorded\n`);
} catch (error) {
  child.kill('SIGKILL');
  const said = output.trim().split('\n').slice(-3).join(' | ');
  process.stderr.write(
    `warning: the code cache was not recorded (${error.message}${said ? `; the service said: ${said}` : ''}); bnity will compile its bundle at each start\n`,
  );
} finally {
  clearTimeout(timer);
  rmSync(home, { recursive: true, force: true });
}
