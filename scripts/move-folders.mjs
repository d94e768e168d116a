#!/usr/bin/env node
// The folder cut of ADR 031: src/gateway/ and src/http/ from flat folders into one folder per
// part. Run from the repository root on a clean tree: `node scripts/move-folders.mjs`, then
// `npx biome check --write src test && npm run -s typecheck && npx vitest run test/architecture`.
// Re-runnable: a second run changes nothing. It
//  1. fails, before touching anything, listing each top-level file of src/gateway/ or src/http/
//     that no line of FOLDERS maps (add a line, run again);
//  2. `git mv`s each mapped file, and the test of the same name (test/http/x.test.ts);
//  3. rewrites every relative path in the code of src/, machines/, test/, bench/, scripts/ that
//     named a moved file (imports, `export … from`, import(), vi.importActual, new URL(…));
//  4. points each import from another part at the part's entry (its folder's index.ts) and
//     writes that index.ts from what the other parts import; an import() from another part, and
//     an import of a DIRECT file, names the file itself, listed as the part's `direct` (§3);
//  5. rewrites `src/gateway/x.ts`-style paths in docs/, README.md and the tests that read sources;
//  6. writes the new parts into docs/architecture/parts.json with their arrows computed from the
//     imports: a known arrow keeps its reason (REASONS), a new one gets `TODO(move-folders)`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const self = 'scripts/move-folders.mjs';

// `--measure` counted the chunks of the ES module bundle a start loaded (ADR 031); since ADR 033
// the bundle is one CommonJS file whose lazy modules run when first needed, and there are no chunks.
if (process.argv[2] === '--measure') {
  console.error('move-folders: --measure applied to the chunked bundle before ADR 033; nothing to measure');
  process.exit(2);
}

// ─── The cut (ADR 031) ───────────────────────────────────────────────────────────────────────
// Per flat folder: the files that stay at its top (the part's composition), the folders with
// their files by name (without .ts), then rules by pattern for files not named.
const FOLDERS = {
  'src/gateway': {
    keep: ['create-gateway', 'sweep-idle-sessions', 'index'],
    folders: {
      session: [
        'admit-session',
        'agent-session',
        'audit-request',
        'count-activity',
        'endpoint-identity',
        'endpoint-instructions',
        'open-agent-session',
        'resource-subscriptions',
        'sdk-channel',
        'serve-session',
        'servers-settled',
        'session-context',
        'session-registry',
        'session-upstreams',
        'track-request',
      ],
      requests: [
        'call-path',
        'call-tool',
        'complete',
        'finish-request',
        'get-prompt',
        'in-process-requests',
        'large-request',
        'list-items',
        'no-agent',
        'read-resource',
        'route-request',
        'sanitize-requests',
        'set-level',
        'subscribe-resource',
        'wire-error',
      ],
      relay: [
        'call-admission',
        'call-tracker',
        'fair-queue',
        'large-share',
        'loss-watch',
        'relay-request',
        'renew-subscriptions',
        'watch-silence',
      ],
      views: [
        'aggregate',
        'compute-view',
        'config-secrets',
        'effective-servers',
        'gateway-sanitizer',
        'notify-list-changes',
        'public-names',
        'tool-filter',
        'view-cache',
      ],
      peer: ['peer-capabilities', 'sampling-budget', 'undelivered-tally', 'upstream-peer'],
      modern: [
        'input-flows',
        'listen-resources',
        'modern-channel',
        'open-modern-view',
        'serve-modern',
        'serve-modern-view',
      ],
      bots: [
        'bot-activity',
        'bot-activity-uri',
        'bot-items',
        'bot-tool-caller',
        'complete-bot-prompt',
        'get-bot-prompt',
        'notify-bot-changes',
        'push-bot-events',
        'serve-bot-activity',
        'serve-bot-tool',
        'wire-bots',
      ],
    },
    patterns: [
      [/bot/, 'bots'],
      [/modern/, 'modern'],
      [/^session-|-session$/, 'session'],
      [/view/, 'views'],
    ],
  },
  'src/http': {
    keep: ['serve-http', 'create-http-handler', 'listen-app', 'create-app', 'compress-json', 'tag-json', 'index'],
    folders: {
      io: ['close-after-linger', 'matches-etag', 'read-json-body', 'sse-buffer-pool', 'sse-write-guard', 'write-json'],
      perimeter: [
        'admit-request',
        'body-budget',
        'http-errors',
        'limit-body',
        'rate-limit',
        'require-origin',
        'require-token',
        'ui-sessions',
      ],
      mcp: [
        'check-mcp-session',
        'clashing-request-id',
        'mcp-endpoint',
        'mcp-headers',
        'mcp-modern',
        'mcp-stream',
        'mcp-transport',
        'read-mcp-post',
        'route-of',
        'serialize-message',
        'session-refusal',
        'sse-event-log',
      ],
      api: [
        'api-routes',
        'api-schemas',
        'ask-as-admin',
        'call-tool-route',
        'run-test-call',
        'server-schemas',
        'server-view',
        'stream-test-call',
        'test-call-client',
      ],
      'api/bots': ['bot-api-schemas', 'bot-detail', 'bots-routes'],
      'web-ui': ['create-web-ui', 'ui-assets', 'ui-routes'],
    },
    patterns: [
      [/^bots?-/, 'api/bots'],
      [/mcp/, 'mcp'],
      [/^ui-|-ui$/, 'web-ui'],
      [/-routes?$|-schemas$/, 'api'],
      [/^sse-|json/, 'io'],
      [/^require-|limit|budget/, 'perimeter'],
    ],
  },
};

// The parts, in the order of parts.json (the first whose pattern matches a file owns it: a
// folder inside another's comes first). `replaces`: the old part they take the place of.
const PARTS = [
  [
    'gateway-session',
    'src/gateway/session',
    'agent sessions: opened over the v1 SDK or admitted, their registry, caps, context, in-flight requests, identity and instructions',
  ],
  [
    'gateway-requests',
    'src/gateway/requests',
    'the call path: one module per request kind (tools/call, prompts/get, …), routing by public name, the wire answer of a failure',
  ],
  [
    'gateway-relay',
    'src/gateway/relay',
    'a request relayed to its upstream: admission and fair queues, which call caused an upstream request, silence and loss watches, shared subscriptions',
  ],
  [
    'gateway-views',
    'src/gateway/views',
    'views: which servers a view aggregates, public names, tool filters, the sanitized cached lists, list-change notices',
  ],
  [
    'gateway-peer',
    'src/gateway/peer',
    "the gateway's side of every upstream connection: what it declares, sampling budgets, undelivered notifications",
  ],
  [
    'gateway-modern',
    'src/gateway/modern',
    'MCP 2026-07-28 on the v2 SDK: the view session, the per-request channel, input flows, subscriptions/listen (loaded lazily)',
  ],
  [
    'gateway-bots',
    'src/gateway/bots',
    'the bots as the gateway serves them: bot tools, skill prompts, the activity resource, the call path lent to bots',
  ],
  ['gateway', 'src/gateway', 'createGateway: puts the gateway folders together; the idle sweep', 'top'],
  [
    'http-io',
    'src/http/io',
    'bytes in and out of node:http: JSON bodies read and written, guarded SSE writes, pooled buffers, lingering closes, ETags',
  ],
  [
    'http-perimeter',
    'src/http/perimeter',
    'what every request passes: Origin, token, rate limit, body limits, and the one mapping of errors to HTTP',
  ],
  [
    'http-mcp',
    'src/http/mcp',
    'the MCP endpoints on node:http: the Streamable HTTP transport, its streams and event log, the modern era (loaded lazily)',
  ],
  [
    'http-api',
    'src/http/api',
    'the /api routes on @hono/zod-openapi (and its OpenAPI document), /api/events, the test call',
  ],
  ['http-web-ui', 'src/http/web-ui', "the web UI's routes: its built files and the admin's UI session"],
  [
    'http',
    'src/http',
    'the HTTP side put together: the node:http server bound first, the handler that sends a request to the MCP endpoint or the Hono app, the app',
    'top',
  ],
];
const REPLACED = {
  gateway: PARTS.filter(([n]) => n.startsWith('gateway')),
  http: PARTS.filter(([n]) => n.startsWith('http')),
};

// Files other parts import themselves rather than through the part's index.ts (ADR 031 §3):
// an index loads its whole part (ESM evaluates every module it re-exports), and these are what
// src/main.ts needs before the upstreams start, and src/start/serve-service.ts before the app,
// while the rest loads beside the upstreams' start (ADR 015). An import() from another part names its file too, and is added to the list.
const DIRECT = [
  'src/gateway/peer/peer-capabilities.ts',
  'src/gateway/relay/call-tracker.ts',
  'src/gateway/session/session-registry.ts',
  'src/http/perimeter/ui-sessions.ts',
  'src/http/web-ui/create-web-ui.ts',
];

// Why each arrow exists; an arrow computed from the imports and missing here is written with
// a TODO reason the lead replaces (and adds here).
const REASONS = {
  'gateway-session → gateway-requests':
    'serves the request kinds over the v1 SDK; the call path the session is opened on',
  'gateway-session → gateway-relay': 'which call caused an upstream request (a session upstream of its own)',
  'gateway-session → gateway-views': 'the view a session is opened on, its names, the servers it waits for',
  'gateway-requests → gateway-session': "the session's context, registry, upstreams and audit rows",
  'gateway-requests → gateway-relay': 'relays the routed request, admitted, tracked and watched',
  'gateway-requests → gateway-views': 'the served view a name or URI is routed in, the sanitizer',
  'gateway-requests → gateway-bots': "a bot's tools, prompts and activity resource beside the view's",
  'gateway-relay → gateway-session':
    'the session context of a relayed request, the registry renewed subscriptions reach',
  'gateway-relay → gateway-requests': 'the call path type',
  'gateway-views → gateway-session': 'list changes reach the registered sessions',
  'gateway-peer → gateway-session': 'answers an upstream in the session that caused the request, with an audit row',
  'gateway-peer → gateway-requests': "sanitizes an upstream's sampling and elicitation, answers failures on the wire",
  'gateway-peer → gateway-relay': 'which call caused the upstream request',
  'gateway-modern → gateway-session': 'the session record a modern view is, its identity and instructions',
  'gateway-modern → gateway-requests': 'serves the same request kinds over the v2 SDK',
  'gateway-bots → gateway-session': 'the sessions served a bot, the session a bot calls tools in',
  'gateway-bots → gateway-requests': 'the call path a bot request is finished on, and the tools a bot calls',
  'gateway-bots → gateway-relay': 'the outcome type of a relayed request',
  'gateway-bots → gateway-views': "a bot tool's public name in the served view",
  'gateway → gateway-session': 'opens, admits, registers and ends sessions',
  'gateway → gateway-requests': 'the call path and tools/call for in-process calls',
  'gateway → gateway-relay': 'admission, the call tracker, loss watches, renewed subscriptions',
  'gateway → gateway-views': 'the view cache, sanitizer, list-change notices, config secrets',
  'gateway → gateway-peer': 'the upstream peer, sampling budgets, undelivered notifications',
  'gateway → gateway-modern': 'modern views and input flows',
  'gateway → gateway-bots': "the bots' side: bot tools, prompts, activity, the tool caller",
  'http → http-io': 'SSE write guards and buffer pools, JSON answers, ETags',
  'http → http-perimeter': "the app's middleware chain and the rate limiter both entrances share",
  'http → http-mcp': 'the MCP endpoints, before the Hono app',
  'http → http-api': 'mounts /api',
  'http → http-web-ui': "mounts the web UI's routes",
  'http-io → http-perimeter': 'the refusal shape',
  'http-perimeter → http-io': 'JSON refusals and lingering closes',
  'http-mcp → gateway': 'the Gateway it opens sessions on',
  'http-mcp → gateway-session': 'session options and the refusals of a full or closing gateway',
  'http-mcp → gateway-views': 'the view spec of an endpoint',
  'http-mcp → gateway-modern': 'the modern view of a 2026-07-28 request',
  'http-mcp → http-io': 'JSON bodies, refusals, guarded SSE writes, pooled buffers',
  'http-mcp → http-perimeter': 'token, rate limit and body budget of each POST, the error answers',
  'http-api → gateway': 'the Gateway the catalog requests and test calls go to as an agent',
  'http-api → gateway-session': 'a test call ended by shutdown',
  'http-api → gateway-views': "a view's servers (a bot's too), public tool names",
  'http-api → http-io': 'guarded SSE writes of /api/events',
  'http-api → http-perimeter': 'the error answer of a streamed test call',
  'http-web-ui → http-io': 'ETags of the built files',
  'http-web-ui → http-perimeter': "the UI sessions it signs in and out, the CSRF header's name",
  'http-mcp → gateway-requests': 'the one wire mapping of a local error',
  'http-api → gateway-requests':
    'the channel of an in-process call with no agent behind it, its wire error and the local error it carries',
  'main → gateway': 'creates the gateway',
  'main → gateway-session': 'creates the session registry the upstream peer answers in',
  'main → gateway-relay': 'creates the call tracker the upstream peer needs',
  'main → gateway-peer': 'creates the upstream peer, sampling budgets, the undelivered tally; what it declares',
  'main → http': 'binds the port first, then loads and builds the HTTP side after the upstreams start',
  'main → http-io': 'the SSE write guard and buffer pool shared by the app and the MCP endpoints',
  'main → http-web-ui': 'the web UI built at start',
  'cli → gateway': 'the gateway of bnity mcp serve --stdio standalone',
  'cli → gateway-session': 'session options of the stdio bridge',
  'cli → gateway-views': 'view specs',
  'cli → gateway-modern': 'the modern view of the stdio bridge',
  'cli → http-perimeter': 'bnity bot without a service maps errors like the service',
  'cli → http-api':
    'bnity bot without a service runs the /api/bots routes in-process on the files; the quarantines answer and bot detail types',
  'ui → http-api': "the request and response schemas (the bots' too), as types",
};
const TODO = 'TODO(move-folders): why';

// ─── Helpers ─────────────────────────────────────────────────────────────────────────────────
const posixPath = (p) => p.split('\\').join('/');
const read = (f) => readFileSync(f, 'utf8');
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
function walk(dir, keep = CODE) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && keep.test(e.name))
    .map((e) => posixPath(relative(root, join(e.parentPath, e.name))))
    .filter((f) => !f.includes('node_modules/') && f !== self);
}
// Every file this run writes, with what it held before (null: new), to format them with biome
// at the end and to count only real changes (a second run then reports none).
const original = new Map();
function put(file, text) {
  if (!original.has(file)) original.set(file, isFileNow(file) ? readFileSync(file, 'utf8') : null);
  writeFileSync(file, text);
}
const isFileNow = (p) => existsSync(p) && statSync(p).isFile();
const isFile = isFileNow;
/** The file a relative path names (`./x.js` → `x.ts`), or null; or a key of `moved`, a path it had. */
function fileOf(path, moved = new Map()) {
  const isFile = (p) => moved.has(p) || isFileNow(p);
  if (isFile(path)) return path;
  const base = path.replace(/\.(js|mjs|cjs|jsx)$/, '');
  for (const ext of ['.ts', '.tsx', '.mts', '.js', '.mjs'])
    if ((base !== path || !/\.\w+$/.test(path)) && isFile(base + ext)) return base + ext;
  if (existsSync(path) && statSync(path).isDirectory() && isFile(join(path, 'index.ts'))) return join(path, 'index.ts');
  return null;
}
/** The specifier from `fromFile` to `target`, in the style of `spec` (its extension or none). */
function specTo(fromFile, target, spec) {
  let rel = posix.relative(posix.dirname(fromFile), target);
  if (!rel.startsWith('.')) rel = `./${rel}`;
  // The spec's own style: `./x.js` for `x.ts`, `./x` without one, any other extension as is.
  const ext = spec.match(/\.\w+$/)?.[0];
  const own = rel.match(/\.\w+$/)?.[0] ?? '';
  if (!ext) return rel.slice(0, rel.length - own.length).replace(/\/index$/, '');
  if (ext === '.js' && /\.tsx?$/.test(own)) return `${rel.slice(0, -own.length)}.js`;
  return rel;
}

// ─── 1. The plan ─────────────────────────────────────────────────────────────────────────────
const moves = new Map(); // old → new, for files still at the old path
const mapped = new Map(); // old → new, for every mapped file wherever it is now
const unmapped = [];
for (const [dir, cut] of Object.entries(FOLDERS)) {
  const destOf = (name) => {
    if (cut.keep.includes(name)) return null;
    for (const [folder, names] of Object.entries(cut.folders)) if (names.includes(name)) return folder;
    for (const [re, folder] of cut.patterns) if (re.test(name)) return folder;
    return undefined;
  };
  // A folder the cut does not know (made by other work meanwhile) is no part either.
  const known = new Set(Object.keys(cut.folders).map((f) => f.split('/')[0]));
  for (const e of readdirSync(dir, { withFileTypes: true }))
    if (e.isDirectory() && !known.has(e.name)) unmapped.push(`${dir}/${e.name}/ (a folder no part owns)`);
  const top = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile());
  for (const e of top) {
    const name = e.name.replace(/\.ts$/, '');
    const folder = destOf(name);
    if (folder === null) continue;
    if (folder === undefined || !e.name.endsWith('.ts')) unmapped.push(`${dir}/${e.name}`);
    else moves.set(`${dir}/${e.name}`, `${dir}/${folder}/${e.name}`);
  }
  for (const folder of Object.keys(cut.folders))
    for (const f of walk(`${dir}/${folder}`, /\.ts$/)) {
      const name = posix.basename(f, '.ts');
      if (name !== 'index' && posix.dirname(f) === `${dir}/${folder}`) mapped.set(`${dir}/${name}.ts`, f);
    }
}
if (unmapped.length > 0) {
  console.error(
    `move-folders: no line of FOLDERS maps these files (add them to a folder or keep):\n  ${unmapped.join('\n  ')}`,
  );
  process.exit(1);
}
for (const [from, to] of [...moves]) {
  mapped.set(from, to);
  // The test of a moved module moves with it (test/ mirrors src/).
  const test = from.replace(/^src\//, 'test/').replace(/\.ts$/, '.test.ts');
  if (isFile(test)) moves.set(test, to.replace(/^src\//, 'test/').replace(/\.ts$/, '.test.ts'));
}
for (const [from, to] of moves) mapped.set(from, to);

// ─── 2. The moves ────────────────────────────────────────────────────────────────────────────
const movedNow = new Map(); // new → old, moved by this run
for (const [from, to] of moves) {
  mkdirSync(dirname(to), { recursive: true });
  execFileSync('git', ['mv', from, to]);
  movedNow.set(to, from);
}

// ─── 3. Relative paths in code ───────────────────────────────────────────────────────────────
const codeFiles = ['src', 'machines', 'test', 'bench', 'scripts'].flatMap((d) => walk(d));
let pathEdits = 0;
for (const file of codeFiles) {
  const text = read(file);
  const was = movedNow.get(file) ?? file;
  const out = text.replace(/(['"])(\.\.?\/[^'"`$\s]*)\1/g, (whole, q, spec) => {
    const old = fileOf(posix.join(posix.dirname(was), spec), mapped);
    // Neither this file nor what it names moved: leave the text alone.
    if (old !== null && !movedNow.has(file) && !mapped.has(old)) return whole;
    let target = old === null ? null : (mapped.get(old) ?? old);
    if (target === null || !isFile(target)) target = fileOf(posix.join(posix.dirname(file), spec));
    if (target === null) return whole;
    const next = specTo(file, target, spec);
    return next === spec ? whole : `${q}${next}${q}`;
  });
  if (out !== text) {
    put(file, out);
    pathEdits++;
  }
}

// ─── 4. Entries: cross-part imports through index.ts ─────────────────────────────────────────
const folderParts = PARTS.map(([name, dir, what, top]) => ({ name, dir, what, top: top === 'top' }));
const partOfFile = (f) =>
  folderParts.find((p) => (p.top ? posix.dirname(f) === p.dir : f.startsWith(`${p.dir}/`))) ?? null;
const entryOf = (p) => `${p.dir}/index.ts`;
const partFiles = (p) =>
  walk(p.dir, /\.ts$/).filter((f) => partOfFile(f) === p && !f.endsWith('.d.ts') && f !== entryOf(p));
/** Exported names of a module: name → 'value' | 'type'. */
function exportsOf(file) {
  const found = new Map();
  const text = read(file);
  for (const m of text.matchAll(
    /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(function\*?|const|let|var|class|abstract\s+class|type|interface|enum)\s+(\w+)/gm,
  ))
    found.set(m[2], /^(type|interface)$/.test(m[1]) ? 'type' : 'value');
  for (const m of text.matchAll(/^export\s+(type\s+)?\{([^}]*)\}/gm))
    for (const item of m[2]
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const typeOnly = Boolean(m[1]) || item.startsWith('type ');
      const name = item
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop();
      found.set(name, typeOnly ? 'type' : 'value');
    }
  return found;
}
const STATEMENT =
  /^(import|export)(\s+type)?\s*(\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+(?:\s*,\s*\{[^}]*\})?)\s*from\s*(['"])([^'"]+)\4;?/gm;
const needs = new Map(); // part → Map(name → 'value' | 'type')
const direct = new Map(); // part → Set of files other parts import themselves (DIRECT, import())
const problems = [];
const sources = ['src', 'machines'].flatMap((d) => walk(d, /\.tsx?$/));
let entryEdits = 0;
for (const file of sources) {
  const from = partOfFile(file);
  const text = read(file);
  let out = text.replace(STATEMENT, (whole, kw, typeKw, clause, q, spec) => {
    if (!spec.startsWith('.')) return whole;
    const target = fileOf(posix.join(posix.dirname(file), spec));
    const to = target && partOfFile(target);
    if (!to || to === from) return whole;
    if (DIRECT.includes(target)) {
      direct.set(to, (direct.get(to) ?? new Set()).add(target));
      return whole;
    }
    const need = needs.get(to) ?? new Map();
    needs.set(to, need);
    const names = [];
    if (clause.startsWith('*')) {
      if (target === entryOf(to)) return whole;
      problems.push(`${file}: \`${kw} * … from '${spec}'\`: name what it uses`);
      return whole;
    }
    if (!clause.includes('{')) problems.push(`${file}: a default import from another part ('${spec}')`);
    for (const item of (clause.match(/\{([^}]*)\}/)?.[1] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const typeOnly = Boolean(typeKw) || item.startsWith('type ');
      const name = item.replace(/^type\s+/, '').split(/\s+as\s+/)[0];
      names.push(name);
      if (!typeOnly || !need.has(name)) need.set(name, typeOnly ? 'type' : 'value');
    }
    if (target === entryOf(to)) return whole;
    entryEdits++;
    return whole.replace(`${q}${spec}${q}`, `${q}${specTo(file, entryOf(to), spec)}${q}`);
  });
  // `typeof import('…').Name` (a type of a value): through the entry, which exports Name.
  out = out.replace(/\btypeof\s+import\(\s*(['"])(\.[^'"]+)\1\s*\)\.(\w+)/g, (whole, q, spec, name) => {
    const target = fileOf(posix.join(posix.dirname(file), spec));
    const to = target && partOfFile(target);
    if (!to || to === from || DIRECT.includes(target)) return whole;
    const need = needs.get(to) ?? new Map();
    needs.set(to, need.set(name, 'value'));
    if (target === entryOf(to)) return whole;
    entryEdits++;
    return whole.replace(`${q}${spec}${q}`, `${q}${specTo(file, entryOf(to), spec)}${q}`);
  });
  for (const m of out.matchAll(/\bimport\(\s*(['"])(\.[^'"]+)\1\s*\)/g)) {
    const target = fileOf(posix.join(posix.dirname(file), m[2]));
    const to = target && partOfFile(target);
    if (!to || to === from || target === entryOf(to)) continue;
    direct.set(to, (direct.get(to) ?? new Set()).add(target));
  }
  for (const m of out.matchAll(/^import\s*(['"])(\.[^'"]+)\1/gm)) {
    const target = fileOf(posix.join(posix.dirname(file), m[2]));
    const to = target && partOfFile(target);
    if (to && to !== from) problems.push(`${file}: a side-effect import of another part ('${m[2]}')`);
  }
  if (out !== text) put(file, out);
  out = undefined;
}
// The modules a part loads with import() itself (ADR 015 §10: time to first call): its index
// must not re-export them, or they would load with the first import of the part.
const lazyInside = new Set();
for (const file of sources)
  for (const m of read(file).matchAll(/\bimport\(\s*(['"])(\.[^'"]+)\1\s*\)/g)) {
    const target = fileOf(posix.join(posix.dirname(file), m[2]));
    if (target && partOfFile(target) && partOfFile(target) === partOfFile(file)) lazyInside.add(target);
  }
const indexes = [];
for (const part of folderParts) {
  const need = needs.get(part);
  const entry = entryOf(part);
  if (!need || need.size === 0) {
    if (isFile(entry)) {
      original.set(entry, read(entry));
      rmSync(entry);
    }
    continue;
  }
  const owner = new Map();
  for (const f of partFiles(part))
    for (const [name, kind] of exportsOf(f)) {
      if (owner.has(name) && need.has(name))
        problems.push(`${part.name}: ${name} is exported by ${owner.get(name).f} and ${f}`);
      owner.set(name, { f, kind });
    }
  const byFile = new Map();
  for (const [name, use] of need) {
    const o = owner.get(name);
    if (!o) {
      problems.push(`${part.name}: nothing in ${part.dir} exports ${name}`);
      continue;
    }
    const kind = o.kind === 'type' ? 'type' : use;
    if (kind === 'value' && lazyInside.has(o.f))
      problems.push(`${entry} would load ${o.f} at once, which is loaded with import(): import it lazily instead`);
    const e = byFile.get(o.f) ?? { value: [], type: [] };
    e[kind].push(name);
    byFile.set(o.f, e);
  }
  const lines = [...byFile.keys()].sort().flatMap((f) => {
    const e = byFile.get(f);
    const spec = specTo(entry, f, 'x.js');
    const sort = (a) => a.sort((x, y) => x.localeCompare(y, 'en', { sensitivity: 'base' }) || (x < y ? -1 : 1));
    return [
      ...(e.value.length ? [`export { ${sort(e.value).join(', ')} } from '${spec}';`] : []),
      ...(e.type.length ? [`export type { ${sort(e.type).join(', ')} } from '${spec}';`] : []),
    ];
  });
  const text = `/**\n * The entry of ${part.dir}/ (part \`${part.name}\` in docs/architecture/parts.json): what the other\n * parts import from it, and nothing else (ADR 031). Written by scripts/move-folders.mjs from\n * their imports; after a change, run it again or add the line by hand.\n * @module\n */\n${lines.join('\n')}\n`;
  if (!isFile(entry) || read(entry) !== text) {
    put(entry, text);
    indexes.push(entry);
  }
}

// ─── 5. Paths in docs and in tests that read sources ─────────────────────────────────────────
const textFiles = [
  'README.md',
  ...walk('docs', /\.md$/).filter((f) => /^docs\/[^/]+\.md$|^docs\/adr\/[^/]+\.md$/.test(f)),
  ...walk('test'),
  ...walk('bench'),
];
let docEdits = 0;
for (const file of textFiles.filter(isFile)) {
  const text = read(file);
  const out = text.replace(
    /\b((?:src|test)\/(?:gateway|http)\/[a-z0-9-]+)\.(ts|js|test\.ts)\b/g,
    (whole, stem, ext) => {
      const key = `${stem}.${ext === 'js' ? 'ts' : ext}`;
      const to = mapped.get(key);
      return to ? `${to.slice(0, -(ext === 'js' ? 3 : ext.length + 1))}.${ext}` : whole;
    },
  );
  if (out !== text) {
    put(file, out);
    docEdits++;
  }
}

// ─── 6. parts.json ───────────────────────────────────────────────────────────────────────────
const picturePath = 'docs/architecture/parts.json';
const picture = JSON.parse(read(picturePath));
const oldParts = picture.parts;
const globsOf = (p) => (p.top ? [`${p.dir}/*.ts`] : [`${p.dir}/**`]);
const next = {};
for (const [name, part] of Object.entries(oldParts)) {
  if (name in REPLACED) {
    for (const [n] of REPLACED[name]) {
      const p = folderParts.find((x) => x.name === n);
      next[n] = { files: globsOf(p), what: p.what, entry: entryOf(p), uses: {}, packages: [] };
    }
    continue;
  }
  if (folderParts.some((p) => p.name === name)) continue;
  next[name] = { ...part };
}
const matchers = Object.entries(next).map(([name, part]) => ({
  name,
  res: part.files.map(
    (g) =>
      new RegExp(
        `^${g
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .split('**')
          .map((s) => s.replace(/\*/g, '[^/]*'))
          .join('.*')}$`,
      ),
  ),
}));
const partNameOf = (f) => matchers.find((m) => m.res.some((re) => re.test(f)))?.name;
const SPECS = [
  /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
];
const arrows = new Map(); // from → Set(to)
const packages = new Map();
for (const file of sources) {
  const from = partNameOf(file);
  if (!from) continue;
  for (const re of SPECS)
    for (const m of read(file).matchAll(re)) {
      const spec = m[1];
      if (!spec.startsWith('.')) {
        const pkg = spec.startsWith('node:')
          ? 'node:*'
          : spec
              .split('/')
              .slice(0, spec.startsWith('@') ? 2 : 1)
              .join('/');
        packages.set(from, (packages.get(from) ?? new Set()).add(pkg));
        continue;
      }
      const to = partNameOf(posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts'));
      if (to && to !== from) arrows.set(from, (arrows.get(from) ?? new Set()).add(to));
    }
}
const isNew = (n) => folderParts.some((p) => p.name === n);
const todo = [];
/** The reason of an arrow: REASONS, else the old part's reason for an old target, else TODO. */
const reasonOf = (from, to) => {
  // REASONS first, then a reason written in parts.json (a re-run), then the replaced part's.
  const kept = oldParts[from]?.uses?.[to];
  const known =
    REASONS[`${from} → ${to}`] ??
    (kept && kept !== TODO ? kept : undefined) ??
    (isNew(to) ? undefined : oldParts[from.split('-')[0]]?.uses?.[to]);
  if (known) return known;
  todo.push(`${from} → ${to}`);
  return TODO;
};
for (const [name, part] of Object.entries(next)) {
  const to = [...(arrows.get(name) ?? [])];
  if (isNew(name)) {
    const old = oldParts[name.split('-')[0]];
    const order = oldParts[name]?.packages ?? old?.packages ?? [];
    const uses = {};
    for (const t of [...to].sort((a, b) => Object.keys(next).indexOf(a) - Object.keys(next).indexOf(b)))
      uses[t] = reasonOf(name, t);
    part.uses = uses;
    const pkgs = packages.get(name) ?? new Set();
    part.packages = [...order.filter((p) => pkgs.has(p)), ...[...pkgs].filter((p) => !order.includes(p))];
    const directFiles = [...(direct.get(folderParts.find((p) => p.name === name)) ?? [])].sort();
    if (directFiles.length > 0) part.direct = directFiles;
    else delete part.direct;
  } else {
    const uses = {};
    for (const [t, why] of Object.entries(part.uses)) if (!(t in REPLACED) && !isNew(t)) uses[t] = why;
    for (const t of to.filter(isNew).sort((a, b) => Object.keys(next).indexOf(a) - Object.keys(next).indexOf(b)))
      uses[t] = REASONS[`${name} → ${t}`] ?? part.uses[t] ?? reasonOf(name, t);
    part.uses = uses;
  }
}
// Keys in a stable order: files, what, entry, direct, uses, packages.
for (const [name, part] of Object.entries(next)) {
  const { files, what, entry, direct: d, uses, packages: p, ...rest } = part;
  next[name] = { files, what, ...(entry ? { entry } : {}), ...(d ? { direct: d } : {}), uses, packages: p, ...rest };
}
put(picturePath, `${JSON.stringify({ ...picture, parts: next }, null, 2)}\n`);

// ─── 7. Format what was written (biome sorts the imports the rewrite left out of order) ───────
const formattable = [...original.keys(), ...moves.values()].filter(
  (f) => isFile(f) && /\.(ts|tsx|mjs|js|json)$/.test(f),
);
try {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/@biomejs/biome/bin/biome'), 'check', '--write', ...formattable],
    {
      stdio: 'ignore',
    },
  );
} catch {
  console.log('biome check --write found something it cannot fix: run `npm run -s lint`');
}
const changed = [...original].filter(([f, was]) => (isFile(f) ? read(f) : null) !== was).map(([f]) => f);
const pictureChanged = changed.includes(picturePath);
const count = (re) => changed.filter((f) => re.test(f)).length;
pathEdits = count(/\.(ts|tsx|mjs|js|cjs|mts)$/);
docEdits = count(/\.md$/);
const indexCount = count(/\/index\.ts$/);

// ─── Summary ─────────────────────────────────────────────────────────────────────────────────
console.log(
  `move-folders: ${moves.size} files moved, ${pathEdits} code files changed, ${entryEdits} imports pointed at an entry,`,
);
console.log(
  `  ${indexCount} index.ts written or removed, ${docEdits} docs/tests with paths rewritten, parts.json ${pictureChanged ? 'rewritten' : 'unchanged'}`,
);
if (todo.length > 0)
  console.log(`Arrows without a reason (parts.json says "${TODO}"; add them to REASONS):\n  ${todo.join('\n  ')}`);
if (problems.length > 0) {
  console.error(`Problems to fix by hand:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
if (moves.size > 0 || entryEdits > 0)
  console.log('Next: npm run -s lint && npm run -s typecheck && npx vitest run test/architecture');
