/**
 * Prints the span tree of one `tools/call` and of one reconnect (issue 21's closing note):
 * the real service in-process with an in-memory exporter, a stdio upstream (the bench's
 * upstream.mjs, or test/support/tiny-server.mjs), an agent over Streamable HTTP sending its own
 * `traceparent`, then the upstream killed with SIGKILL.
 * Run: node --import tsx bench/span-tree.ts
 * @module
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { pino } from 'pino';
import { startService } from '../src/main.js';

const upstream = process.argv[2] ?? new URL('../test/support/tiny-server.mjs', import.meta.url).pathname;
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const home = await mkdtemp(join(tmpdir(), 'bnity-tree-'));
const config = join(home, 'boternity.json');
const backoff = { baseMs: 200, capMs: 400, jitter: 0 };
await writeFile(
  config,
  JSON.stringify({ mcpServers: { up: { command: process.execPath, args: [upstream], backoff } } }),
);
const service = await startService({
  home,
  config,
  port: 0,
  env: { ...process.env, BOTERNITY_ADMIN_TOKEN: 't' },
  log: pino({ level: 'silent' }),
  tracing: {
    tracer: provider.getTracer('tree'),
    dropped: () => 0,
    slowPingMs: 60_000,
    shutdown: () => provider.shutdown(),
  },
});
const until = async (check: () => boolean | Promise<boolean>) => {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
};
await until(() => service.hub.getServer('up').state === 'connected');
const client = new Client({ name: 'tree-agent', version: '1.0.0' });
await client.connect(
  new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), {
    requestInit: { headers: { authorization: 'Bearer t' } },
  }),
);
const { tools } = await client.listTools();
const tool = tools[0]?.name ?? 'up__echo';
exporter.reset();
await client.callTool({
  name: tool,
  arguments: { text: 'hi' },
  _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
});
print('one tools/call', exporter.getFinishedSpans());
exporter.reset();
const pid = service.hub.getServer('up').pid as number;
process.kill(pid, 'SIGKILL');
await until(() => service.hub.getServer('up').state === 'connected' && service.hub.getServer('up').pid !== pid);
print('one reconnect (SIGKILL of the stdio child)', exporter.getFinishedSpans());
await client.close();
await service.stop();
await rm(home, { recursive: true, force: true });

function print(title: string, spans: ReadableSpan[]) {
  console.log(`\n## ${title}\n`);
  const ms = (s: ReadableSpan) => (s.duration[0] * 1e3 + s.duration[1] / 1e6).toFixed(2);
  const children = (id: string | undefined) =>
    spans.filter((s) => s.parentSpanContext?.spanId === id).sort((a, b) => a.startTime[1] - b.startTime[1]);
  const known = new Set(spans.map((s) => s.spanContext().spanId));
  const roots = spans.filter((s) => !s.parentSpanContext || !known.has(s.parentSpanContext.spanId));
  const show = (span: ReadableSpan, depth: number) => {
    const kind = ['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'][span.kind];
    const parent = depth === 0 && span.parentSpanContext ? ` parent=${span.parentSpanContext.spanId} (remote)` : '';
    console.log(
      `${'  '.repeat(depth)}${span.name} [${kind}] ${ms(span)} ms trace=${span.spanContext().traceId}${parent}`,
    );
    for (const [key, value] of Object.entries(span.attributes))
      console.log(`${'  '.repeat(depth)}    ${key}=${JSON.stringify(value)}`);
    if (span.status.code === 2)
      console.log(`${'  '.repeat(depth)}    status=ERROR ${JSON.stringify(span.status.message)}`);
    for (const event of span.events)
      console.log(`${'  '.repeat(depth)}    event ${event.name} ${JSON.stringify(event.attributes)}`);
    for (const child of children(span.spanContext().spanId)) show(child, depth + 1);
  };
  for (const root of roots) show(root, 0);
}
