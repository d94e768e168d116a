#!/usr/bin/env node
// Bot figures (issue 9), run by `npm run bench:bots` (node --import tsx, so it runs the same
// sources the tests do):
// 1. the chat loop's own overhead per tool round: the time of a turn not spent in the
//    provider (the local OpenAI-compatible fixture, timed on its side from request to last
//    byte) nor in the tool port (timed around listTools and callTool), for turns of 0 and R tool
//    rounds; the per-round figure is the difference divided by R;
// 2. `list_bots` and the bot tools' `tools/list` with 1,000 bots.
// The database is a SQLite file in a temp directory (WAL), as in production. Writes
// bench/results/bots-<timestamp>.json and prints a table.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { botLimits } from '../src/bots/bot-limits.ts';
import { createBot } from '../src/bots/create-bot.ts';
import { createBotTools } from '../src/bots/create-bot-tools.ts';
import { startChat } from '../src/bots/start-chat.ts';
import { createEventBus } from '../src/bus/create-event-bus.ts';
import { createDb } from '../src/storage/create-db.ts';
import { connectDemoServer, createSdkToolCaller } from '../test/support/bot-tool-caller.ts';
import { startOpenAiFixture } from '../test/support/openai-fixture.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TURNS = Number(process.env.TURNS ?? 40);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const BOTS = Number(process.env.BOTS ?? 1000);
const LISTS = Number(process.env.LISTS ?? 30);

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const summary = (values) => ({
  n: values.length,
  minMs: +Math.min(...values).toFixed(3),
  medianMs: +quantile(values, 0.5).toFixed(3),
  p95Ms: +quantile(values, 0.95).toFixed(3),
  meanMs: +(values.reduce((a, b) => a + b, 0) / values.length).toFixed(3),
});

const home = mkdtempSync(join(tmpdir(), 'bnity-bench-bots-'));
const store = await createDb({ url: process.env.DB === 'memory' ? ':memory:' : `file:${join(home, 'bench.db')}` });
const fixture = await startOpenAiFixture();
const demo = await connectDemoServer();
const port = createSdkToolCaller({ servers: { demo } });
let toolMs = 0;
// The port's own time (listing and calling tools) is the gateway's in production, not the loop's.
const timedPort = {
  async listTools(slug) {
    const t0 = performance.now();
    try {
      return await port.listTools(slug);
    } finally {
      toolMs += performance.now() - t0;
    }
  },
  async callTool(...args) {
    const t0 = performance.now();
    try {
      return await port.callTool(...args);
    } finally {
      toolMs += performance.now() - t0;
    }
  },
};
const deps = {
  db: store.db,
  log: pino({ level: 'silent' }),
  limits: botLimits({ maxToolRounds: ROUNDS + 1, providerMaxRetries: 0 }),
  tools: timedPort,
  credentials: { get: async () => null },
  changes: createEventBus(),
};

try {
  await createBot(deps, { slug: 'bench', name: 'Bench', provider: { baseUrl: fixture.baseUrl, model: 'bench-model' } });

  /** One turn with `rounds` tool rounds; returns its wall time and its overhead (ms). */
  const turn = async (rounds) => {
    for (let i = 0; i < rounds; i += 1)
      fixture.reply({ toolCalls: [{ name: 'demo__echo', arguments: { text: `round ${i}` } }] });
    fixture.reply({ text: 'All done, here is the answer you asked for.' });
    const from = fixture.requests.length;
    toolMs = 0;
    const t0 = performance.now();
    const run = await startChat(deps, 'bench', { message: 'go' });
    let final = null;
    for await (const event of run.events) if (event.type === 'final' || event.type === 'error') final = event;
    const wall = performance.now() - t0;
    if (final?.type !== 'final') throw new Error(`turn failed: ${JSON.stringify(final)}`);
    const providerMs = fixture.requests.slice(from).reduce((n, r) => n + (r.timing.end - r.timing.start), 0);
    return { wall, overhead: wall - providerMs - toolMs, providerMs, toolMs };
  };

  for (let i = 0; i < 5; i += 1) await turn(ROUNDS); // warm up
  const plain = [];
  const withTools = [];
  for (let i = 0; i < TURNS; i += 1) {
    plain.push(await turn(0));
    withTools.push(await turn(ROUNDS));
  }
  const median = (rows, key) =>
    quantile(
      rows.map((r) => r[key]),
      0.5,
    );
  const perRound = (median(withTools, 'overhead') - median(plain, 'overhead')) / ROUNDS;

  // 1,000 bots: list_bots (every bot, as JSON) and the bot tools' tools/list (4 tools each).
  for (let i = 1; i < BOTS; i += 1)
    await createBot(deps, { slug: `bot-${String(i).padStart(4, '0')}`, name: `Bot ${i}`, description: 'A bench bot' });
  const tools = createBotTools(deps);
  const admin = { caller: { kind: 'admin' }, signal: new AbortController().signal };
  const listBots = [];
  const toolsList = [];
  let listed = 0;
  let toolCount = 0;
  for (let i = 0; i < LISTS + 3; i += 1) {
    const t0 = performance.now();
    const result = await tools.call('list_bots', {}, admin);
    const t1 = performance.now();
    const list = await tools.list(admin);
    const t2 = performance.now();
    listed = result.structuredContent.bots.length;
    toolCount = list.length;
    if (i >= 3) {
      listBots.push(t1 - t0);
      toolsList.push(t2 - t1);
    }
  }

  const figures = {
    at: new Date().toISOString(),
    node: process.version,
    // The machine is shared: the load average says how much of a core this run could get.
    loadAverage: loadavg().map((n) => +n.toFixed(2)),
    chat: {
      turns: TURNS,
      toolRounds: ROUNDS,
      turnWithoutTools: summary(plain.map((r) => r.overhead)),
      turnWithTools: summary(withTools.map((r) => r.overhead)),
      overheadPerToolRoundMs: +perRound.toFixed(3),
      medianWallMs: {
        withoutTools: +median(plain, 'wall').toFixed(3),
        withTools: +median(withTools, 'wall').toFixed(3),
      },
      medianProviderMs: +median(withTools, 'providerMs').toFixed(3),
      medianToolMs: +median(withTools, 'toolMs').toFixed(3),
    },
    listBots: { bots: listed, ...summary(listBots) },
    botToolsList: { tools: toolCount, ...summary(toolsList) },
  };
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  const file = join(root, 'bench', 'results', `bots-${figures.at.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`chat loop overhead (ms, not in provider or tool), ${TURNS} turns each:`);
  console.log(
    `  turn without tools   median ${figures.chat.turnWithoutTools.medianMs}  p95 ${figures.chat.turnWithoutTools.p95Ms}`,
  );
  console.log(
    `  turn with ${ROUNDS} rounds   median ${figures.chat.turnWithTools.medianMs}  p95 ${figures.chat.turnWithTools.p95Ms}`,
  );
  console.log(
    `  per tool round       ${figures.chat.overheadPerToolRoundMs} (minimum turns: ${figures.chat.turnWithoutTools.minMs} and ${figures.chat.turnWithTools.minMs})`,
  );
  console.log(`list_bots, ${listed} bots:        median ${figures.listBots.medianMs}  p95 ${figures.listBots.p95Ms}`);
  console.log(
    `bot tools list, ${toolCount} tools: median ${figures.botToolsList.medianMs}  p95 ${figures.botToolsList.p95Ms}`,
  );
  console.log(`load average ${figures.loadAverage.join(' ')}; written to ${file}`);
} finally {
  await demo.close();
  await fixture.close();
  await store.close();
  rmSync(home, { recursive: true, force: true });
}
