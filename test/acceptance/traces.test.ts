/**
 * Traces end to end (issue 21): the real service with `telemetry` on exports OTLP/HTTP
 * protobuf to a real receiver on 127.0.0.1; an agent's `_meta.traceparent` is continued,
 * and upstreams over stdio and Streamable HTTP receive our CLIENT span as their parent (in
 * `_meta`, and over HTTP in the `traceparent` header too). With the collector down, calls
 * are unaffected and the dropped spans are counted in `/metrics`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';
import { startTinyHttp, type TinyHttp } from '../support/start-tiny-http.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const TRACE_SERVER = fixtureServer('trace-server.mjs');
const AGENT_TRACE = '0af7651916cd43dd8448eb211c80319c';
const AGENT_SPAN = 'b7ad6b7169203331';
const SERVER = 2;
const CLIENT = 3;

/** Resolves once `name` is connected. */
const connected = (svc: TestService, name: string) =>
  waitFor(async () => (await svc.server(name))?.state === 'connected' || null, { what: `${name} connected` });

/** What the trace server says reached it. */
type Seen = { meta: Record<string, unknown> | null; header: string | null };
const seenOf = (result: Awaited<ReturnType<Client['callTool']>>): Seen =>
  JSON.parse((result.content as { text: string }[])[0]?.text ?? 'null') as Seen;

describe('traces to a collector', () => {
  let receiver: OtlpReceiver;
  let http: TinyHttp;
  let svc: TestService;
  let agent: Client;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    http = await startTinyHttp(TRACE_SERVER, { TRACE_SERVER_HTTP: '1' });
    svc = await startTestService({
      mcpServers: { st: { command: process.execPath, args: [TRACE_SERVER] }, ht: { url: http.url, type: 'http' } },
      telemetry: { enabled: true, endpoint: receiver.url, serviceName: 'bnity-e2e', scheduledDelayMs: 50 },
    });
    for (const name of ['st', 'ht']) await connected(svc, name);
    agent = await connectHttpClient(`${svc.service.url}/mcp`);
  }, 30_000);
  afterAll(async () => {
    await agent?.close();
    await svc?.stop();
    await http?.stop();
    await receiver?.close();
  });

  it("continues an agent's trace through a stdio upstream, whose parent is our CLIENT span", async () => {
    const seen = seenOf(
      await agent.callTool({
        name: 'st__trace',
        arguments: {},
        _meta: { traceparent: `00-${AGENT_TRACE}-${AGENT_SPAN}-01` },
      }),
    );
    const server = await receiver.waitFor((s) => s.name === 'tools/call st__trace' && s.kind === SERVER);
    const client = await receiver.waitFor(
      (s) => s.name === 'tools/call trace' && s.attributes['boternity.server'] === 'st',
    );
    expect(server.traceId).toBe(AGENT_TRACE);
    expect(server.parentSpanId).toBe(AGENT_SPAN);
    expect(server.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'st__trace',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'boternity.server': 'st',
    });
    expect(server.attributes['mcp.session.id']).toMatch(/./);
    expect(server.attributes['mcp.protocol.version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(server.resource['service.name']).toBe('bnity-e2e');
    expect(client).toMatchObject({ kind: CLIENT, traceId: AGENT_TRACE, parentSpanId: server.spanId });
    expect(client.attributes['network.transport']).toBe('pipe');
    expect(client.endNs).toBeGreaterThan(client.startNs);
    expect(seen.meta?.traceparent).toBe(`00-${AGENT_TRACE}-${client.spanId}-01`);
    expect(seen.header).toBeNull();
    // GET /api/audit names the trace of the call.
    const row = await waitFor(
      async () =>
        (
          await svc.api<{ entries: { toolName: string | null; traceId: string | null }[] }>('/api/audit?server=st')
        ).body.entries.find((e) => e.toolName === 'trace') ?? null,
      { what: 'the audit row of the call' },
    );
    expect(row.traceId).toBe(AGENT_TRACE);
  });

  it('starts a new trace for an agent that sends none, and carries it to an HTTP upstream in _meta and the header', async () => {
    const seen = seenOf(await agent.callTool({ name: 'ht__trace', arguments: {} }));
    const client = await receiver.waitFor(
      (s) => s.name === 'tools/call trace' && s.attributes['boternity.server'] === 'ht',
    );
    const server = await receiver.waitFor((s) => s.spanId === client.parentSpanId);
    expect(server).toMatchObject({ name: 'tools/call ht__trace', kind: SERVER, parentSpanId: '' });
    expect(server.traceId).not.toBe(AGENT_TRACE);
    expect(seen.meta?.traceparent).toBe(`00-${server.traceId}-${client.spanId}-01`);
    expect(seen.header).toBe(seen.meta?.traceparent);
  });

  it('takes the HTTP traceparent header when _meta carries none', async () => {
    const headerTrace = 'c'.repeat(32);
    // Every POST of this client carries the header, as an HTTP-instrumented agent's would.
    const headed = new Client({ name: 'headed', version: '1.0.0' });
    await headed.connect(
      new StreamableHTTPClientTransport(new URL(`${svc.service.url}/mcp`), {
        requestInit: {
          headers: { authorization: `Bearer ${TEST_TOKEN}`, traceparent: `00-${headerTrace}-${'d'.repeat(16)}-01` },
        },
      }),
    );
    await headed.listTools();
    await headed.close();
    const server = await receiver.waitFor((s) => s.traceId === headerTrace);
    expect(server).toMatchObject({ name: 'tools/list', kind: SERVER, parentSpanId: 'd'.repeat(16) });
  });
});

describe('traces with the collector down', () => {
  let svc: TestService;
  let agent: Client;
  beforeAll(async () => {
    const nobody = await freePort();
    svc = await startTestService({
      mcpServers: { st: { command: process.execPath, args: [TRACE_SERVER] } },
      telemetry: {
        enabled: true,
        endpoint: `http://127.0.0.1:${nobody}`,
        scheduledDelayMs: 20,
        exportTimeoutMs: 500,
      },
    });
    await connected(svc, 'st');
    agent = await connectHttpClient(`${svc.service.url}/mcp`);
  }, 30_000);
  afterAll(async () => {
    await agent?.close();
    await svc?.stop();
  });

  it('answers every call as usual and counts the spans it could not export', async () => {
    for (let i = 0; i < 5; i++) {
      const seen = seenOf(await agent.callTool({ name: 'st__trace', arguments: {} }));
      expect(seen.meta?.traceparent).toMatch(/^00-[\da-f]{32}-[\da-f]{16}-01$/);
    }
    const dropped = async () => {
      const text = await (
        await fetch(`${svc.service.url}/metrics`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } })
      ).text();
      return Number(/^boternity_trace_spans_dropped_total (\d+)/m.exec(text)?.[1] ?? -1);
    };
    // Five SERVER and five CLIENT spans at least, once their exports have failed.
    await expect.poll(dropped, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(10);
  });
});
