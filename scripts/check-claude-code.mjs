#!/usr/bin/env node
// Claude Code against boternity, with no network (issue 12): `bnity serve` with one stdio
// upstream behind a recording proxy; Claude Code's `claude mcp add` + `claude mcp list` over
// HTTP and over `bnity mcp serve --stdio` (bridged to the service through the proxy). Passes
// when both print `✔ Connected` and the proxy saw Claude Code open with `server/discover`
// and then work without a session (MCP 2026-07-28). Claude Code is not a dependency (a
// 200 MB native binary, engines node >= 22): give its `claude` as CLAUDE_BIN
// (`npm install @anthropic-ai/claude-code@2.1.330` anywhere). `npm run check:claude-code`.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { spawnServe } from '../bench/lib/spawn-serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const claude = process.env.CLAUDE_BIN;
if (!claude) {
  console.error('check-claude-code: set CLAUDE_BIN to the path of a Claude Code 2.1.330 `claude`');
  process.exit(2);
}
const TOKEN = 'claude-code-check';
const run = promisify(execFile);

const service = await spawnServe({
  config: {
    mcpServers: { tiny: { command: process.execPath, args: [join(root, 'test', 'support', 'tiny-server.mjs')] } },
  },
  token: TOKEN,
});
const target = new URL(service.url);
const seen = [];
// Forwards to the service as it is (Host rewritten for its Host check) and notes each POST.
const proxy = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    let method = req.method;
    try {
      method = JSON.parse(body.toString()).method ?? 'response';
    } catch {}
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        seen.push({
          method,
          header: req.headers['mcp-method'] ?? null,
          session: Boolean(req.headers['mcp-session-id']),
          status: answer.statusCode,
        });
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.end(body);
  });
});
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const proxied = `http://127.0.0.1:${proxy.address().port}`;
const home = mkdtempSync(join(tmpdir(), 'claude-code-check-'));
const env = { ...process.env, HOME: home, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
const claudeRun = async (...args) => (await run(claude, args, { env, cwd: home, timeout: 90_000 })).stdout;

let failed = false;
try {
  await claudeRun(
    'mcp',
    'add',
    '--transport',
    'http',
    'gw',
    `${proxied}/mcp`,
    '--header',
    `Authorization: Bearer ${TOKEN}`,
  );
  await claudeRun(
    'mcp',
    'add',
    'gwstdio',
    '-e',
    `BOTERNITY_URL=${proxied}`,
    '-e',
    `BOTERNITY_ADMIN_TOKEN=${TOKEN}`,
    '--',
    process.execPath,
    join(root, 'bin', 'bnity.js'),
    'mcp',
    'serve',
    '--stdio',
  );
  // Claude Code exits 0 even when a server fails: the verdict is in its output.
  const listed = await claudeRun('mcp', 'list');
  console.log(listed.trim());
  console.table(seen);
  const connected = (name) => new RegExp(`^${name}: .*✔ Connected`, 'm').test(listed);
  const checks = {
    'HTTP: ✔ Connected': connected('gw'),
    'stdio (bridged): ✔ Connected': connected('gwstdio'),
    'opens with server/discover': seen[0]?.method === 'server/discover' && seen[0]?.status === 200,
    'never initializes': !seen.some((s) => s.method === 'initialize'),
    'tools/list with no session, Mcp-Method sent': seen.some(
      (s) => s.method === 'tools/list' && !s.session && s.header === 'tools/list' && s.status === 200,
    ),
  };
  console.table(checks);
  failed = Object.values(checks).includes(false);
} finally {
  proxy.close();
  proxy.closeAllConnections();
  await service.stop();
  rmSync(home, { recursive: true, force: true });
}
console.log(
  failed
    ? 'check-claude-code: FAILED'
    : 'check-claude-code: Claude Code 2.1.330 works with boternity on MCP 2026-07-28',
);
process.exit(failed ? 1 : 0);
