#!/usr/bin/env node
// The call path counted (issue 20): how many of our functions, in how many files, one
// `tools/call` on /mcp runs. `npm run bench:call-path` (node --import tsx) starts the service
// in this process from src/, with one stdio upstream (test/support/tiny-server.mjs, its
// `echo` tool), connects the SDK's Streamable HTTP client to /mcp on 127.0.0.1, warms up
// (WARMUP calls, default 200), then counts with V8's precise coverage (node:inspector,
// Profiler.startPreciseCoverage with callCount, per function): the counters are reset, exactly
// N calls are made, the counters are read, REPEAT (3) times for each N of CALLS (default
// "1,10"). A function of src/ or machines/ is on the path when it ran in every window of an
// N, unless it also runs with no call at all (the idle sweep's and heap trim's timers) and
// ran less than once a call; the set must be the same for every N, or the script fails
// (something other than the calls ran). One more window per N, read as soon as the answer is
// in, tells what ran before the answer left (the rest, marked †, is the audit's batched write).
// Precise count coverage turns V8's optimizer off while it is on, so no call is hidden by
// inlining: each count is the function's exact number of runs (node 20: a leaf inlined before
// the count is counted at every run).
// Prints the figures and a Markdown table (file → functions, runs a call); writes
// bench/results/call-path-<timestamp>.json. Exits 1 on any failure, 2 on bad settings.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pino } from 'pino';

// V8 counts a function's runs in its feedback vector, which it allocates lazily, and drops
// with the function's bytecode when the service's idle trim flushes it (ADR 015 §9); either
// way a function could go uncounted in a window (seen: the audit row's id maker, the
// journal's append). With vectors made at once and no flushing every count is kept: this
// script runs itself again with those flags when they were not given, before the service loads.
const FLAGS = ['--no-lazy-feedback-allocation', '--no-flush-bytecode'];
if (!FLAGS.every((flag) => process.execArgv.includes(flag))) {
  const { spawnSync } = await import('node:child_process');
  const given = process.execArgv.filter((flag) => !FLAGS.includes(flag));
  const args = [...FLAGS, ...given, fileURLToPath(import.meta.url), ...process.argv.slice(2)];
  const child = spawnSync(process.execPath, args, { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}
const { startService } = await import('../src/main.ts');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const WARMUP = Number(process.env.WARMUP ?? 200);
const CALLS = (process.env.CALLS ?? '1,10').split(',').map(Number);
const TOKEN = 'bench-admin-token';
const TOOL = 'tiny__echo';
const REPEAT = Number(process.env.REPEAT ?? 3);
// TEXT_CHARS: the echoed text padded to this length (from 32, a sentence: the long-text paths, ADR 050).
const TEXT_CHARS = Number(process.env.TEXT_CHARS ?? 0);
const QUIET_MS = 2_500;
const BACKGROUND_MS = 1_200;
const SETTLE_MS = 300;
const ours = ['src/', 'machines/'].map((dir) => pathToFileURL(join(root, dir)).href);

if (CALLS.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(WARMUP) || WARMUP < 0) {
  console.error(`CALLS must be positive integers ("1,10") and WARMUP a count; got CALLS=${CALLS} WARMUP=${WARMUP}`);
  process.exit(2);
}

/** Our file of a script URL (`src/gateway/requests/call-tool.ts`), or null for anything else. */
function ourFile(url) {
  const bare = url.split('?')[0] ?? '';
  if (!ours.some((prefix) => bare.startsWith(prefix))) return null;
  return relative(root, fileURLToPath(bare)).split('\\').join('/');
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The original line of each generated offset, from the script's inline source map (tsx adds one). */
async function lineFinder(session, scriptId) {
  const { scriptSource } = await session.post('Debugger.getScriptSource', { scriptId });
  const starts = [0];
  for (let i = scriptSource.indexOf('\n'); i !== -1; i = scriptSource.indexOf('\n', i + 1)) starts.push(i + 1);
  const inline = /\/\/# sourceMappingURL=data:application\/json;(?:charset=utf-8;)?base64,([A-Za-z0-9+/=]+)\s*$/.exec(
    scriptSource,
  );
  const map = inline ? new SourceMap(JSON.parse(Buffer.from(inline[1], 'base64').toString('utf8'))) : null;
  return (offset) => {
    let line = 0;
    for (let lo = 0, hi = starts.length - 1; lo <= hi; ) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] <= offset) {
        line = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const entry = map?.findEntry(line, offset - starts[line]);
    return entry && 'originalLine' in entry ? entry.originalLine + 1 : null;
  };
}

/** The functions of ours that ran in a coverage result: `file → [{ name, offset, count, scriptId }]`. */
function ranOfOurs(result) {
  const files = new Map();
  for (const script of result) {
    const file = ourFile(script.url);
    if (!file) continue;
    for (const fn of script.functions) {
      const range = fn.ranges[0];
      // The module's own top level (offset 0, no name) is loading, not the call path; `__name`
      // is the transpiler's helper (keepNames) and `<instance_members_initializer>` V8's for
      // class fields: neither is a function of our source.
      if (!range || range.count === 0 || (range.startOffset === 0 && fn.functionName === '')) continue;
      if (fn.functionName === '__name' || fn.functionName.startsWith('<')) continue;
      const list = files.get(file) ?? [];
      list.push({ name: fn.functionName, offset: range.startOffset, count: range.count, scriptId: script.scriptId });
      files.set(file, list);
    }
  }
  return files;
}

const keyOf = (file, fn) => `${file}#${fn.name}@${fn.offset}`;
const keys = (files) => new Set([...files].flatMap(([file, fns]) => fns.map((fn) => keyOf(file, fn))));

const home = mkdtempSync(join(tmpdir(), 'bnity-bench-path-'));
const configPath = join(home, 'boternity.json');
const tiny = join(root, 'test', 'support', 'tiny-server.mjs');
writeFileSync(configPath, JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args: [tiny] } } }));
const env = { ...process.env, BOTERNITY_ADMIN_TOKEN: TOKEN };
delete env.DATABASE_URL;
let service;
let client;
const session = new Session();
let failed = false;
try {
  service = await startService({ home, config: configPath, port: 0, env, log: pino({ level: 'silent' }) });
  const url = new URL(`${service.url}/mcp`);
  if (url.hostname !== '127.0.0.1') throw new Error(`the service is not on 127.0.0.1: ${service.url}`);
  client = new Client({ name: 'call-path', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }),
  );
  // The first list waits (bounded) for the view's servers; the tool must be there after it.
  const { tools } = await client.listTools();
  if (!tools.some((t) => t.name === TOOL)) throw new Error(`${TOOL} not listed: ${tools.map((t) => t.name)}`);
  let n = 0;
  const call = async () => {
    n += 1;
    const text = `call ${n}`.padEnd(TEXT_CHARS, '.');
    const result = await client.callTool({ name: TOOL, arguments: { text } });
    if (result.isError || result.content?.[0]?.text !== text) throw new Error(`bad answer: ${JSON.stringify(result)}`);
  };
  for (let i = 0; i < WARMUP; i += 1) await call();
  // Start-up's deferred work (the control app built once the loop is quiet, ADR 015 §10) runs now, not in a window.
  await pause(QUIET_MS);

  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  const count = async (calls, ms) => {
    await session.post('Profiler.takePreciseCoverage'); // resets the counters
    for (let i = 0; i < calls; i += 1) await call();
    await pause(ms);
    return ranOfOurs((await session.post('Profiler.takePreciseCoverage')).result);
  };
  // What runs with no call at all (timers: the heap trim's tick, the idle watch), longer than their periods.
  const background = await count(0, BACKGROUND_MS);
  const noise = keys(background);
  const measured = [];
  for (const calls of CALLS) {
    // The window outlasts the audit's batch timer (100 ms), so the write a call causes is in it.
    // A function counts only when it ran in every repeat (a timer that fired once is not the call's).
    const runs = [];
    for (let r = 0; r < REPEAT; r += 1) runs.push(await count(calls, SETTLE_MS));
    const sets = runs.map(keys);
    const always = new Set([...sets[0]].filter((k) => sets.every((set) => set.has(k))));
    // The same calls with the counters read as soon as the answer is in: what ran before it left.
    const before = keys(await count(calls, 0));
    measured.push({ calls, last: runs.at(-1), always, before });
  }
  await session.post('Profiler.stopPreciseCoverage');
  // A function that also runs with no call stays on the path only if, in the most calls'
  // window, it ran at least once a call (say, a lookup the idle sweep makes too).
  const most = measured.reduce((a, b) => (b.calls > a.calls ? b : a));
  const perCall = new Set(
    [...most.last].flatMap(([file, fns]) => fns.filter((fn) => fn.count >= most.calls).map((fn) => keyOf(file, fn))),
  );
  const windows = measured.map(({ calls, last, always, before }) => {
    const files = new Map();
    for (const [file, fns] of last) {
      const kept = fns.filter((fn) => {
        const key = keyOf(file, fn);
        return always.has(key) && (!noise.has(key) || perCall.has(key));
      });
      if (kept.length) files.set(file, kept);
    }
    return { calls, files, before };
  });

  // The per-call set is the same whatever the number of calls, or the windows caught other work.
  const first = windows[0];
  for (const w of windows.slice(1)) {
    const a = keys(first.files);
    const b = keys(w.files);
    const onlyA = [...a].filter((k) => !b.has(k));
    const onlyB = [...b].filter((k) => !a.has(k));
    if (onlyA.length || onlyB.length)
      throw new Error(
        `the functions run differ between ${first.calls} and ${w.calls} calls: ` +
          `only in ${first.calls}: ${onlyA.join(', ') || '-'}; only in ${w.calls}: ${onlyB.join(', ') || '-'}`,
      );
  }

  // Names and original lines, read once the counting is over.
  await session.post('Debugger.enable');
  const last = windows.at(-1);
  const finders = new Map();
  const rows = [];
  for (const [file, fns] of [...last.files].sort(([a], [b]) => a.localeCompare(b))) {
    const scriptId = fns[0].scriptId;
    if (!finders.has(scriptId)) finders.set(scriptId, await lineFinder(session, scriptId));
    const lineOf = finders.get(scriptId);
    const listed = fns
      .sort((x, y) => x.offset - y.offset)
      .map((fn) => ({
        name: fn.name || '(anonymous)',
        line: lineOf(fn.offset),
        perCall: fn.count / last.calls,
        after: !first.before.has(keyOf(file, fn)),
      }));
    rows.push({ file, functions: listed });
  }
  await session.post('Debugger.disable');

  /** Functions and files of `rows` that pass `keep`. */
  const tally = (keep) => {
    const kept = rows.map((r) => r.functions.filter(keep).length);
    return { functions: kept.reduce((x, y) => x + y, 0), files: kept.filter((k) => k > 0).length };
  };
  const all = tally(() => true);
  const before = tally((f) => !f.after);
  const named = tally((f) => f.name !== '(anonymous)');
  const fmt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(2));
  console.log(`# one tools/call (${TOOL}, stdio upstream) on /mcp, after ${WARMUP} warm-up calls`);
  for (const w of windows) {
    const total = [...w.files.values()].reduce((s, fns) => s + fns.reduce((t, fn) => t + fn.count, 0), 0);
    console.log(
      `${w.calls} call(s): ${keys(w.files).size} functions in ${w.files.size} files, ${total} runs (${fmt(total / w.calls)} a call)`,
    );
  }
  const quiet = [...background]
    .map(([file, fns]) => [file, fns.filter((fn) => !perCall.has(keyOf(file, fn)))])
    .filter(([, fns]) => fns.length > 0)
    .map(([file, fns]) => `${file} (${fns.map((fn) => fn.name || '(anonymous)').join(', ')})`);
  console.log(`not counted, run with no call as well: ${quiet.join('; ') || 'nothing'}`);
  console.log(`\nOne tools/call crosses ${all.functions} of our functions in ${all.files} files.`);
  const afterFiles = rows.filter((r) => r.functions.some((f) => f.after)).map((r) => r.file);
  console.log(`  ${before.functions} in ${before.files} files before the answer leaves; the rest (†) after it,`);
  console.log(`  in ${afterFiles.join(', ') || 'none'}.`);
  console.log(
    `  ${named.functions} of them (in ${named.files} files) have a name; the others are arrows and callbacks.\n`,
  );
  console.log('| file | functions (`name`:line, ×runs a call when not 1, † after the answer) |');
  console.log('| ---- | --------------------------------------------------------------------- |');
  for (const r of rows) {
    const names = r.functions.map(
      (f) =>
        `\`${f.name}\`${f.line ? `:${f.line}` : ''}${f.perCall === 1 ? '' : ` ×${fmt(f.perCall)}`}${f.after ? ' †' : ''}`,
    );
    console.log(`| \`${r.file}\` | ${names.join(', ')} |`);
  }
  const out = join(root, 'bench', 'results');
  mkdirSync(out, { recursive: true });
  const file = join(out, `call-path-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ tool: TOOL, warmup: WARMUP, calls: CALLS, ...all, beforeAnswer: before, named, rows }, null, 2)}\n`,
  );
  console.log(`\nwritten: ${relative(root, file)}`);
} catch (error) {
  failed = true;
  console.error(`call-path: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  session.disconnect();
  await client?.close().catch(() => {});
  await service?.stop('bench').catch(() => {});
  rmSync(home, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
