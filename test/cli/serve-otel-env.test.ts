/**
 * SPEC §7's contract for traces: the standard `OTEL_EXPORTER_OTLP_ENDPOINT`,
 * `OTEL_SERVICE_NAME` and `OTEL_TRACES_SAMPLER` variables turn on OTLP/HTTP export of a real
 * `bnity serve`, with no `telemetry` key in its config; `OTEL_SDK_DISABLED=true` keeps it off.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectHttpClient } from '../support/mcp-client.js';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';
import { type ServeProcess, spawnServe } from '../support/serve-process.js';

const TOKEN = 'otel-env-test';
const homes: string[] = [];
const serves: ServeProcess[] = [];
let receiver: OtlpReceiver;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(async () => {
  await receiver?.close();
});
afterEach(async () => {
  for (const serve of serves.splice(0)) {
    serve.child.kill('SIGTERM');
    expect((await serve.exited).code).toBe(0);
  }
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});

/** `bnity serve` with no servers and no `telemetry` key, its environment plus `env`. */
async function serveWith(env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const home = await mkdtemp(join(tmpdir(), 'bnity-otel-'));
  homes.push(home);
  const config = join(home, 'boternity.json');
  await writeFile(config, JSON.stringify({ mcpServers: {} }));
  const serve = await spawnServe(['--port', '0', '--config', config, '--home', home], {
    BOTERNITY_LOG_LEVEL: 'info',
    BOTERNITY_ADMIN_TOKEN: TOKEN,
    OTEL_BSP_SCHEDULE_DELAY: '20',
    ...env,
  });
  serves.push(serve);
  return serve;
}

/** One `tools/list` on `/mcp` with `traceId` as its caller's trace. */
async function listWithTrace(serve: ServeProcess, traceId: string): Promise<void> {
  const agent = await connectHttpClient(`${serve.url}/mcp`, {}, TOKEN);
  await agent.listTools({ _meta: { traceparent: `00-${traceId}-${'1'.repeat(16)}-01` } });
  await agent.close();
}

describe('the standard OTEL_* variables', () => {
  it('turn on OTLP/HTTP export with no telemetry key in the config', async () => {
    const serve = await serveWith({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'contract-check',
      OTEL_TRACES_SAMPLER: 'parentbased_always_on',
    });
    const traceId = `${'a'.repeat(31)}1`;
    await listWithTrace(serve, traceId);
    const span = await receiver.waitFor((s) => s.traceId === traceId, 15_000);
    expect(span).toMatchObject({ name: 'tools/list', kind: 2, parentSpanId: '1'.repeat(16) });
    expect(span.resource['service.name']).toBe('contract-check');
    expect(serve.stdout()).toContain('tracing on');
  });

  it('export nothing when OTEL_SDK_DISABLED=true', async () => {
    const serve = await serveWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SDK_DISABLED: 'true' });
    const traceId = `${'b'.repeat(31)}2`;
    await listWithTrace(serve, traceId);
    expect(serve.stdout()).not.toContain('tracing on');
    // A second, traced service's span arriving means the first one's would have by now.
    const witness = await serveWith({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    const witnessTrace = `${'c'.repeat(31)}3`;
    await listWithTrace(witness, witnessTrace);
    await receiver.waitFor((s) => s.traceId === witnessTrace, 15_000);
    expect(receiver.spans.some((s) => s.traceId === traceId)).toBe(false);
  });
});
