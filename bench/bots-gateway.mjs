#!/usr/bin/env node
// The gateway-side bot figure (issue 9), run by `npm run bench:bots` after bench/bots.mjs:
// a chat through `chat__{slug}` on the real service (HTTP, an SDK client on /mcp), whose
// tool rounds call a real stdio server (test/support/tiny-server.mjs) through the gateway's
// call path (view, sanitizer, audit), against the local OpenAI-compatible fixture. Reports
// the wall time of a turn minus the provider's own time (timed on the fixture's side), for
// 0 and R rounds; the per-round figure is the difference divided by R (it includes the
// tool's stdio round trip). Writes bench/results/bots-gateway-<timestamp>.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pino } from 'pino';
import { startService } from '../src/main.ts';
import { startOpenAiFixture } from '../test/support/openai-fixture.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TURNS = Number(process.env.TURNS ?? 30);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const TOKEN = 'bench-admin-token';

const quantile = (values, q) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const median = (values) => +quantile(values, 0.5).toFixed(3);

const home = mkdtempSync(join(tmpdir(), 'bnity-bench-gw-'));
const configPath = join(home, 'boternity.json');
const tiny = join(root, 'test', 'support', 'tiny-server.mjs');
writeFileSync(configPath, JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: [tiny] } } }));
const fixture = await startOpenAiFixture();
const env = { ...process.env, BOTERNITY_ADMIN_TOKEN: TOKEN };
delete env.DATABASE_URL;
const service = await startService({ home, config: configPath, port: 0, env, log: pino({ level: 'silent' }) });
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
let client;
try {
  const made = await fetch(`${service.url}/api/bots`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ slug: 'bench', name: 'Bench', provider: { baseUrl: fixture.baseUrl, model: 'bench' } }),
  });
  if (made.status !== 201) throw new Error(`bot not created: ${made.status}`);
  client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), { requestInit: { headers } }));

  const turn = async (rounds) => {
    for (let i = 0; i < rounds; i += 1)
      fixture.reply({ toolCalls: [{ name: 'tiny__echo', arguments: { text: `round ${i}` } }] });
    fixture.reply({ text: 'All done.' });
    const from = fixture.requests.length;
    const t0 = performance.now();
    const result = await client.callTool({ name: 'chat__bench', arguments: { message: 'go' } });
    const wall = performance.now() - t0;
    if (result.isError) throw new Error(`turn failed: ${JSON.stringify(result.content)}`);
    const providerMs = fixture.requests.slice(from).reduce((n, r) => n + (r.timing.end - r.timing.start), 0);
    return wall - providerMs;
  };
  for (let i = 0; i < 5; i += 1) await turn(ROUNDS); // warm up
  const plain = [];
  const withTools = [];
  for (let i = 0; i < TURNS; i += 1) {
    plain.push(await turn(0));
    withTools.push(await turn(ROUNDS));
  }
  const figures = {
    at: new Date().toISOString(),
    node: process.version,
    loadAverage: loadavg().map((n) => +n.toFixed(2)),
    turns: TURNS,
    toolRounds: ROUNDS,
    chatToolTurnWithoutToolsMs: median(plain),
    chatToolTurnWithToolsMs: median(withTools),
    perToolRoundThroughGatewayMs: +((median(withTools) - median(plain)) / ROUNDS).toFixed(3),
  };
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  const file = join(root, 'bench', 'results', `bots-gateway-${figures.at.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`chat__{slug} through the service (ms, not in the provider), ${TURNS} turns each:`);
  console.log(`  turn without tools   median ${figures.chatToolTurnWithoutToolsMs}`);
  console.log(`  turn with ${ROUNDS} rounds   median ${figures.chatToolTurnWithToolsMs}`);
  console.log(
    `  per tool round       ${figures.perToolRoundThroughGatewayMs} (tool call through the gateway included)`,
  );
  console.log(`load average ${figures.loadAverage.join(' ')}; written to ${file}`);
} finally {
  await client?.close();
  await service.stop('bench');
  await fixture.close();
  rmSync(home, { recursive: true, force: true });
}
