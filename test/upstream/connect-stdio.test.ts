import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { StdioServerConfig } from '../../src/config/schema.js';
import { connectUpstream } from '../../src/upstream/connect-upstream.js';
import { isAlive, listDescendants, readStartTime, readStat } from '../../src/upstream/process-tree.js';
import { createStderrLog, type StderrSink } from '../../src/upstream/stderr-log.js';
import type { LiveUpstream, ProcessLedger } from '../../src/upstream/types.js';
import { EVERYTHING_BIN } from '../support/everything.js';
import { SILENT_LIST_SERVER, TINY_SERVER, testLogger } from '../support/fixtures.js';
import { stdioConfig } from '../support/server-config.js';
import { waitFor } from '../support/wait-for.js';

const node = process.execPath;
const log = testLogger();
const opened: LiveUpstream[] = [];

async function connect(
  config: StdioServerConfig,
  extra: { graceMs?: number; stderrLines?: number; ledger?: ProcessLedger; stderr?: StderrSink } = {},
) {
  const upstream = await connectUpstream({ serverId: 'test', config, log, ...extra });
  opened.push(upstream);
  return upstream;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((u) => u.close()));
});

function memoryLedger() {
  const events: string[] = [];
  const ledger: ProcessLedger = {
    recordSpawn: async ({ serverId, pid, startTime }) => {
      events.push(`spawn ${serverId} ${pid} ${startTime}`);
    },
    recordExit: async (pid) => {
      events.push(`exit ${pid}`);
    },
  };
  return { ledger, events };
}

/** A child that never answers, and exits when its input ends. */
const NEVER_ANSWERS = 'process.stdin.on("end", () => process.exit(0)).resume(); setInterval(() => {}, 1000)';

describe('connectUpstream over stdio', () => {
  it('connects to server-everything and lists tools, resources, templates and prompts', async () => {
    const { ledger, events } = memoryLedger();
    const upstream = await connect(stdioConfig({ command: node, args: [EVERYTHING_BIN] }), { ledger });
    expect(upstream.transport).toBe('stdio');
    expect(upstream.pid).toBeGreaterThan(0);
    // Launched through setsid, which execs in place: the child leads its own process group.
    expect(readStat(upstream.pid ?? -1)?.pgrp).toBe(upstream.pid);
    const counts = upstream.counts;
    expect(counts.toolCount).toBeGreaterThan(0);
    expect(counts.resourceCount).toBeGreaterThan(0);
    expect(counts.resourceTemplateCount).toBeGreaterThan(0);
    expect(counts.promptCount).toBeGreaterThan(0);
    expect(upstream.catalog().tools.some((t) => t.name === 'echo')).toBe(true);
    expect(await upstream.ping(5_000)).toBeGreaterThanOrEqual(0);

    const pid = upstream.pid ?? -1;
    const startTime = readStartTime(pid);
    await upstream.close();
    expect(isAlive(pid)).toBe(false);
    expect(await upstream.closed).toEqual({ error: null });
    expect(events).toEqual([`spawn test ${pid} ${startTime}`, `exit ${pid}`]);
  });

  it('captures stderr into a bounded log', async () => {
    const upstream = await connect(
      stdioConfig({ command: node, args: [TINY_SERVER], env: { TINY_STDERR_LINES: '50' } }),
      {
        stderrLines: 10,
      },
    );
    await waitFor(() => upstream.stderr.lines().at(-1) === 'stderr line 50');
    expect(upstream.stderr.lines()).toEqual(Array.from({ length: 10 }, (_, i) => `stderr line ${41 + i}`));
  });

  it('ends every process a forking wrapper started when closed', async () => {
    const script = [
      `'${node}' -e 'setInterval(() => {}, 1000)' &`,
      'sleep 30 &',
      'setsid sleep 30 &',
      `'${node}' '${TINY_SERVER}'`,
      'wait',
    ].join('\n');
    // What is tested is that all of them end, not how long a SIGTERM is given: a short grace.
    const upstream = await connect(stdioConfig({ command: 'sh', args: ['-c', script] }), { graceMs: 500 });
    const pid = upstream.pid ?? -1;
    await waitFor(() => listDescendants(pid).length >= 4);
    const tree = [pid, ...listDescendants(pid)];
    expect(tree.length).toBeGreaterThanOrEqual(5);
    await upstream.close();
    for (const p of tree) expect({ pid: p, alive: isAlive(p) }).toEqual({ pid: p, alive: false });
  });

  it('ends stdin, then sends SIGTERM, then SIGKILL after graceMs to a server that ignores both', async () => {
    const upstream = await connect(
      stdioConfig({ command: node, args: [TINY_SERVER], env: { TINY_IGNORE_SIGTERM: '1' } }),
      {
        graceMs: 500,
      },
    );
    const pid = upstream.pid ?? -1;
    const started = Date.now();
    await upstream.close();
    const took = Date.now() - started;
    // 2 s for it to exit on the end of its input (MCP's stdio shutdown), then graceMs after SIGTERM.
    expect(took).toBeGreaterThanOrEqual(2_450);
    expect(took).toBeLessThan(4_500);
    expect(isAlive(pid)).toBe(false);
    expect(upstream.stderr.lines()).toContain('ignoring SIGTERM');
  });

  it('lets a server that saves on the end of its input do so: no SIGTERM comes with it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bnity-save-'));
    const saved = join(dir, 'saved.txt');
    // Saves (after a pause, as a real write would take) once stdin ends; killed at once by SIGTERM.
    const script = [
      `process.stdin.on('end', () => setTimeout(() => { require('fs').writeFileSync(${JSON.stringify(saved)}, 'ok'); process.exit(0); }, 300));`,
      `process.on('SIGTERM', () => process.exit(1));`,
      `import(${JSON.stringify(pathToFileURL(TINY_SERVER).href)});`,
    ].join('\n');
    try {
      const upstream = await connect(stdioConfig({ command: node, args: ['-e', script] }), { graceMs: 2_000 });
      await upstream.close();
      expect(await readFile(saved, 'utf8')).toBe('ok');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('ends a SIGSTOPped child on close', async () => {
    const upstream = await connect(stdioConfig({ command: node, args: [TINY_SERVER] }), { graceMs: 2_000 });
    const pid = upstream.pid ?? -1;
    process.kill(pid, 'SIGSTOP');
    await waitFor(() => readStat(pid)?.state === 'T');
    await upstream.close();
    expect(isAlive(pid)).toBe(false);
  });

  it('resolves closed when the child is killed, and records its exit', async () => {
    const { ledger, events } = memoryLedger();
    const upstream = await connect(stdioConfig({ command: node, args: [TINY_SERVER] }), { ledger });
    const pid = upstream.pid ?? -1;
    process.kill(pid, 'SIGKILL');
    const { error } = await upstream.closed;
    expect(error?.message).toBe('upstream process was killed by SIGKILL');
    await upstream.close();
    expect(events.at(-1)).toBe(`exit ${pid}`);
  });

  it('rejects with a clear error when the command does not exist', async () => {
    await expect(connect(stdioConfig({ command: '/nope' }))).rejects.toThrow('spawn /nope ENOENT');
    await expect(connect(stdioConfig({ command: 'no-such-command-bnity' }))).rejects.toThrow(
      'spawn no-such-command-bnity ENOENT',
    );
  });

  it("quotes the child's own last stderr lines when it exits during the handshake, never ours", async () => {
    // Kept across restarts, as the hub's log is: each spawn marks it with a "started pid" line.
    const stderr = createStderrLog(10);
    const config = stdioConfig({
      command: node,
      args: ['-e', 'console.error("loading"); console.error("bad config: no API key"); process.exit(3)'],
    });
    await expect(connect(config, { stderr })).rejects.toThrow(
      /^upstream process exited with code 3 during initialize; stderr: loading \| bad config: no API key$/,
    );
    const silent = stdioConfig({ command: node, args: ['-e', 'process.exit(4)'] });
    await expect(connect(silent, { stderr })).rejects.toThrow(
      /^upstream process exited with code 4 during initialize$/,
    );
  });

  it('says what the child printed when it does not answer in time', async () => {
    const config = stdioConfig({
      command: node,
      // It ends when its input does, as a stdio server does (what ends one that does not is the
      // test below): its close takes no 2 s wait for that.
      args: [
        '-e',
        'console.error("waiting for a token"); process.stdin.on("end", () => process.exit(0)).resume(); setInterval(() => {}, 1000)',
      ],
      // Long enough for the child to have printed, on a loaded machine.
      connectTimeoutMs: 3_000,
    });
    await expect(connect(config)).rejects.toThrow(/^connect timed out after 3000 ms; stderr: waiting for a token$/);
  });

  it('says the catalog listing timed out, naming requestTimeoutMs', async () => {
    const config = stdioConfig({ command: node, args: [SILENT_LIST_SERVER], requestTimeoutMs: 300 });
    await expect(connect(config)).rejects.toThrow(/^listing the catalog timed out after 300 ms \(requestTimeoutMs\)$/);
  });

  it('fails the calls in flight naming maxAnswerBytes when the child writes a longer message, and closes saying so', async () => {
    const upstream = await connect(stdioConfig({ command: node, args: [TINY_SERVER], maxAnswerBytes: 64 * 1024 }));
    const expected =
      'server "test" sent a message over 65536 bytes (maxAnswerBytes): it was not read, and the connection was closed';
    const call = upstream.callTool({ name: 'echo', arguments: { text: 'x'.repeat(200_000) } });
    await expect(call).rejects.toThrow(expected);
    expect((await upstream.closed).error?.message).toBe(expected);
  });

  it('times out, and leaves no process, when the server never answers', async () => {
    const config = stdioConfig({
      command: node,
      // Ends when its input does, as a stdio server does: the close takes no 2 s wait for that
      // (a child that ignores it and SIGTERM is ended above).
      args: ['-e', NEVER_ANSWERS],
      connectTimeoutMs: 300,
    });
    const { ledger, events } = memoryLedger();
    await expect(connect(config, { ledger })).rejects.toThrow('connect timed out after 300 ms');
    const pid = Number(events[0]?.split(' ')[2]);
    expect(events).toEqual([expect.stringMatching(/^spawn test \d+ \d+$/), `exit ${pid}`]);
    expect(isAlive(pid)).toBe(false);
  });

  it('rejects and cleans up when the signal aborts during connect', async () => {
    const { ledger, events } = memoryLedger();
    const config = stdioConfig({ command: node, args: ['-e', NEVER_ANSWERS] });
    const connecting = connectUpstream({ serverId: 'test', config, log, ledger, signal: AbortSignal.timeout(300) });
    await expect(connecting).rejects.toThrow('connect aborted');
    const pid = Number(events[0]?.split(' ')[2]);
    expect(events.at(-1)).toBe(`exit ${pid}`);
    expect(isAlive(pid)).toBe(false);
  });

  it('starts nothing when the signal is already aborted', async () => {
    const { ledger, events } = memoryLedger();
    const config = stdioConfig({ command: node, args: [TINY_SERVER] });
    const connecting = connectUpstream({ serverId: 'test', config, log, ledger, signal: AbortSignal.abort() });
    await expect(connecting).rejects.toThrow('connect aborted');
    expect(events).toEqual([]);
  });
});
