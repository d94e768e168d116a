/**
 * Lifecycle spans (issue 21, seed 004) on the real service: a stdio upstream killed with
 * SIGKILL gives an `mcp.connection_lost` span with its backoff as an event, then a new
 * `mcp.connect_attempt` with a higher `mcp.attempt`; slow health pings and config applies
 * are spans; the endpoint never carries credentials.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointOf } from '../../src/hub/trace-server-events.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { memoryTracing } from '../support/memory-tracing.js';
import { remoteConfig, stdioConfig } from '../support/server-config.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const QUICK = { backoff: { baseMs: 50, capMs: 100, jitter: 0 }, healthIntervalMs: 200 };

describe('lifecycle spans', () => {
  const memory = memoryTracing({ slowPingMs: 0 });
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService(
      {
        mcpServers: {
          tiny: { command: process.execPath, args: [TINY_SERVER, '--secret-flag'], ...QUICK },
          broken: { command: '/nonexistent/bin/mcp', ...QUICK, backoff: { ...QUICK.backoff, maxAttempts: 3 } },
        },
      },
      { tracing: memory.tracing },
    );
    await waitFor(async () => (await svc.server('tiny'))?.state === 'connected' || null, { what: 'tiny connected' });
  }, 30_000);
  afterAll(() => svc?.stop());

  const attempts = () =>
    memory
      .spans()
      .filter((s) => s.name === 'mcp.connect_attempt' && s.attributes['mcp.server'] === 'tiny')
      .map((s) => s.attributes);

  it('reconnects a stdio child killed with SIGKILL as a lost connection, a backoff event and a higher attempt', async () => {
    expect(attempts()).toEqual([
      expect.objectContaining({
        'mcp.server': 'tiny',
        'mcp.endpoint': process.execPath,
        'mcp.transport': 'stdio',
        'mcp.attempt': 0,
        'mcp.outcome': 'connected',
      }),
    ]);
    const before = await svc.server('tiny');
    process.kill(before?.pid as number, 'SIGKILL');
    await waitFor(
      async () => {
        const s = await svc.server('tiny');
        return s?.state === 'connected' && s.pid !== before?.pid ? s : null;
      },
      { what: 'tiny reconnected', timeoutMs: 15_000 },
    );
    const numbers = attempts().map((a) => a['mcp.attempt'] as number);
    expect(numbers.length).toBeGreaterThanOrEqual(2);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers.at(-1)).toBeGreaterThan(0);
    const lost = memory.spans().find((s) => s.name === 'mcp.connection_lost');
    expect(lost?.status.code).toBe(SpanStatusCode.ERROR);
    expect(lost?.events.map((e) => [e.name, typeof e.attributes?.['mcp.backoff.delay_ms']])).toEqual([
      ['backoff', 'number'],
    ]);
    // No argument of the command (they may carry secrets) is in any span.
    expect(JSON.stringify(memory.spans().map((s) => s.attributes))).not.toContain('--secret-flag');
  });

  it('ends each failed attempt with its error and the backoff that follows, attempts increasing', async () => {
    const failed = await waitFor(
      () => {
        const spans = memory
          .spans()
          .filter((s) => s.name === 'mcp.connect_attempt' && s.attributes['mcp.server'] === 'broken');
        return spans.length >= 3 ? spans : null;
      },
      { what: 'three failed attempts' },
    );
    expect(failed.map((s) => s.attributes['mcp.attempt']).slice(0, 3)).toEqual([0, 1, 2]);
    for (const span of failed.slice(0, 3)) {
      expect(span.attributes['mcp.outcome']).toBe('failed');
      expect(span.status).toMatchObject({
        code: SpanStatusCode.ERROR,
        message: expect.stringMatching(/nonexistent|ENOENT/),
      });
    }
    expect(failed[0]?.events[0]?.attributes?.['mcp.backoff.delay_ms']).toBe(50);
  });

  it('makes a health ping slower than slowPingMs (0 here) a span of its own', async () => {
    const ping = await waitFor(() => memory.spans().find((s) => s.name === 'mcp.health_ping') ?? null, {
      what: 'a health ping span',
    });
    expect(ping.attributes).toMatchObject({ 'mcp.server': 'tiny', 'mcp.outcome': 'slow' });
  });

  it('makes a config apply a span with a child per server added', async () => {
    await svc.writeConfig({
      mcpServers: {
        tiny: { command: process.execPath, args: [TINY_SERVER, '--secret-flag'], ...QUICK },
        other: { command: process.execPath, args: [TINY_SERVER] },
      },
    });
    const apply = await waitFor(() => memory.spans().find((s) => s.name === 'boternity.config.apply') ?? null, {
      what: 'a config apply span',
    });
    expect(apply.attributes['boternity.config.added']).toEqual(['other']);
    const added = memory.spans().find((s) => s.name === 'mcp.server.add');
    expect(added?.attributes['mcp.server']).toBe('other');
    expect(added?.parentSpanContext?.spanId).toBe(apply.spanContext().spanId);
  });
});

describe('endpointOf', () => {
  it('keeps no credentials of a URL and no argument of a command', () => {
    expect(endpointOf(remoteConfig({ url: 'https://user:pw@mcp.example.com/v1/mcp?key=secret#x' }))).toBe(
      'https://mcp.example.com/v1/mcp',
    );
    expect(endpointOf(stdioConfig({ command: 'npx', args: ['-y', 'server', '--token=abc'] }))).toBe('npx');
  });
});
