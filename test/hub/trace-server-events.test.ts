/**
 * Lifecycle spans (issue 21, seed 004) on the real service: the first config apply is a span;
 * each server's connect loop is an `mcp.connect_loop` span, parent of its
 * `mcp.connect_attempt` spans, with each backoff wait an event carrying its delay; a stdio
 * upstream killed with SIGKILL gives an `mcp.connection_lost` span opening a new loop with a
 * higher `mcp.attempt`; a health ping that is slow, or that fails (an upstream stopped with
 * SIGSTOP), is an `mcp.health_ping` span of its own; the endpoint never carries credentials.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointOf } from '../../src/hub/trace-server-events.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { memoryTracing } from '../support/memory-tracing.js';
import { remoteConfig, stdioConfig } from '../support/server-config.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const QUICK = { backoff: { baseMs: 50, capMs: 100, jitter: 0 }, healthIntervalMs: 200 };
const SERVERS = {
  tiny: { command: process.execPath, args: [TINY_SERVER, '--secret-flag'], ...QUICK },
  broken: { command: '/nonexistent/bin/mcp', ...QUICK, backoff: { ...QUICK.backoff, maxAttempts: 3 } },
  frozen: { command: process.execPath, args: [TINY_SERVER], ...QUICK, pingTimeoutMs: 300 },
};

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

describe('lifecycle spans', () => {
  const memory = memoryTracing({ slowPingMs: 0 });
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ mcpServers: SERVERS }, { tracing: memory.tracing });
    for (const name of ['tiny', 'frozen'])
      await waitFor(async () => (await svc.server(name))?.state === 'connected' || null, { what: `${name} connected` });
  }, 30_000);
  afterAll(() => svc?.stop());

  const named = (name: string, server?: string) =>
    memory.spans().filter((s) => s.name === name && (server === undefined || s.attributes['mcp.server'] === server));

  it('makes the first config apply a span, every server added', () => {
    const [first] = named('boternity.config.apply');
    expect(first?.attributes).toMatchObject({
      'boternity.config.first': true,
      'boternity.config.added': ['tiny', 'broken', 'frozen'],
      'boternity.config.removed': [],
    });
    expect(
      named('mcp.server.add')
        .filter((s) => parentOf(s) === (first && idOf(first)))
        .map((s) => s.attributes['mcp.server']),
    ).toEqual(['tiny', 'broken', 'frozen']);
  });

  it('makes the first connect a loop span, parent of its attempt, ended when connected', () => {
    const [loop] = named('mcp.connect_loop', 'tiny');
    expect(loop?.attributes).toMatchObject({
      'mcp.server': 'tiny',
      'mcp.endpoint': process.execPath,
      'mcp.transport': 'stdio',
      'mcp.outcome': 'connected',
      'mcp.attempts': 1,
    });
    const [attempt] = named('mcp.connect_attempt', 'tiny');
    expect(attempt?.attributes).toMatchObject({ 'mcp.attempt': 0, 'mcp.outcome': 'connected' });
    expect(parentOf(attempt as ReadableSpan)).toBe(idOf(loop as ReadableSpan));
  });

  it('reconnects a stdio child killed with SIGKILL: a lost connection opening a new loop, its backoff and a higher attempt', async () => {
    const before = await svc.server('tiny');
    process.kill(before?.pid as number, 'SIGKILL');
    await waitFor(
      async () => {
        const s = await svc.server('tiny');
        return s?.state === 'connected' && s.pid !== before?.pid ? s : null;
      },
      { what: 'tiny reconnected', timeoutMs: 15_000 },
    );
    const loops = await waitFor(
      () => (named('mcp.connect_loop', 'tiny').length >= 2 ? named('mcp.connect_loop', 'tiny') : null),
      {
        what: 'the second loop ended',
      },
    );
    const second = loops[1] as ReadableSpan;
    const lost = named('mcp.connection_lost', 'tiny');
    expect(lost).toHaveLength(1);
    expect(lost[0]?.status.code).toBe(SpanStatusCode.ERROR);
    expect(parentOf(lost[0] as ReadableSpan)).toBe(idOf(second));
    expect(second.events.map((e) => [e.name, typeof e.attributes?.['mcp.backoff.delay_ms']])).toContainEqual([
      'backoff',
      'number',
    ]);
    const attempts = named('mcp.connect_attempt', 'tiny').filter((s) => parentOf(s) === idOf(second));
    expect(attempts.length).toBeGreaterThanOrEqual(1);
    expect(attempts.at(-1)?.attributes['mcp.attempt']).toBeGreaterThan(0);
    expect(second.attributes['mcp.outcome']).toBe('connected');
    // No argument of the command (they may carry secrets) is in any span.
    expect(JSON.stringify(memory.spans().map((s) => s.attributes))).not.toContain('--secret-flag');
  });

  it('puts every failed attempt of a loop under it, with each backoff as an event, until the attempts run out', async () => {
    const loop = await waitFor(() => named('mcp.connect_loop', 'broken')[0] ?? null, {
      what: 'the loop of broken ended (maxAttempts)',
    });
    const failed = named('mcp.connect_attempt', 'broken');
    expect(failed.length).toBeGreaterThanOrEqual(3);
    expect(loop.attributes).toMatchObject({ 'mcp.outcome': 'disabled (exhausted)', 'mcp.attempts': failed.length });
    expect(loop.status).toMatchObject({ code: SpanStatusCode.ERROR, message: 'backoff.maxAttempts reached' });
    expect(failed.map((s) => s.attributes['mcp.attempt'])).toEqual(failed.map((_s, i) => i));
    for (const span of failed) expect(parentOf(span)).toBe(idOf(loop));
    for (const span of failed.slice(0, -1))
      expect(span.status).toMatchObject({
        code: SpanStatusCode.ERROR,
        message: expect.stringMatching(/nonexistent|ENOENT/),
      });
    // The last one's failure disables the server at once (no reconnecting event says why).
    expect(failed.at(-1)?.status).toMatchObject({ code: SpanStatusCode.ERROR, message: 'backoff.maxAttempts reached' });
    // A wait between each two attempts, none after the last (the attempts ran out).
    const delays = loop.events.map((e) => e.attributes?.['mcp.backoff.delay_ms']);
    expect(delays).toHaveLength(failed.length - 1);
    expect(delays.slice(0, 2)).toEqual([50, 100]);
  });

  it('makes a health ping slower than slowPingMs (0 here) a span of its own', async () => {
    const ping = await waitFor(() => named('mcp.health_ping', 'tiny')[0] ?? null, { what: 'a health ping span' });
    expect(ping.attributes).toMatchObject({ 'mcp.server': 'tiny', 'mcp.outcome': 'slow', 'mcp.ping.kind': 'health' });
    expect(ping.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('makes a health ping that fails a span of its own, apart from the connection lost', async () => {
    const pid = (await svc.server('frozen'))?.pid as number;
    process.kill(pid, 'SIGSTOP');
    try {
      const failed = await waitFor(
        () => named('mcp.health_ping', 'frozen').find((s) => s.attributes['mcp.outcome'] === 'failed') ?? null,
        { what: 'a failed health ping span', timeoutMs: 10_000 },
      );
      expect(failed.attributes).toMatchObject({ 'error.type': expect.any(String), 'mcp.ping.timeout_ms': 300 });
      expect(failed.status.code).toBe(SpanStatusCode.ERROR);
      const lost = await waitFor(() => named('mcp.connection_lost', 'frozen')[0] ?? null, { what: 'frozen lost' });
      expect(lost.status.message).toMatch(/^health ping/);
      expect(idOf(lost)).not.toBe(idOf(failed));
    } finally {
      resume(pid);
    }
  });
});

/** SIGCONT to `pid`, which the supervisor may have ended already (the connection was lost). */
function resume(pid: number): void {
  try {
    process.kill(pid, 'SIGCONT');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

describe('endpointOf', () => {
  it('keeps no credentials of a URL and no argument of a command', () => {
    expect(endpointOf(remoteConfig({ url: 'https://user:pw@mcp.example.com/v1/mcp?key=secret#x' }))).toBe(
      'https://mcp.example.com/v1/mcp',
    );
    expect(endpointOf(stdioConfig({ command: 'npx', args: ['-y', 'server', '--token=abc'] }))).toBe('npx');
  });
});
