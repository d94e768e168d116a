/**
 * Issue 18 item 4 (seed 004's logging table): a connection attempt starting is logged at
 * info, a failure that will be retried at warn, the backoff delay at debug on a line of its
 * own, and each tool call at debug with its server, tool, duration and outcome but never its
 * arguments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLog, LEVEL } from '../support/capture-log.js';
import { fixtureServer } from '../support/fixture-server.js';
import { type GatewayHarness, startGateway } from '../support/gateway-harness.js';

describe('log levels of the server lifecycle and tool calls', () => {
  const { log, lines, text } = captureLog('debug');
  let gw: GatewayHarness;
  let down = true;
  beforeAll(async () => {
    gw = await startGateway({
      log,
      connected: false,
      servers: {
        alpha: { make: () => fixtureServer({ prefix: 'a_' }) },
        flaky: {
          make: () => {
            if (down) throw new Error('flaky is down for now');
            return fixtureServer({ prefix: 'f_' });
          },
        },
      },
    });
    await gw.inState('alpha', 'connected');
  });
  afterAll(() => gw?.stop());

  it('logs an attempt at info, a retried failure at warn and the backoff delay at debug, each its own line', async () => {
    await gw.until(() => gw.events.some((e) => e.type === 'reconnecting' && e.server === 'flaky'), 'flaky retrying');
    down = false;
    await gw.inState('flaky', 'connected');
    const of = (msg: string) => lines.filter((l) => l.msg === msg && l.server === 'flaky');
    const attempts = of('upstream connection attempt starting');
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts.every((l) => l.level === LEVEL.info)).toBe(true);
    expect(attempts[0]).toMatchObject({ attempt: expect.any(Number) });
    const failed = of('upstream reconnect scheduled');
    expect(failed[0]).toMatchObject({ level: LEVEL.warn, error: 'flaky is down for now' });
    const backoff = of('upstream backoff delay starting');
    expect(backoff.length).toBe(failed.length);
    expect(backoff[0]).toMatchObject({ level: LEVEL.debug, delayMs: expect.any(Number), attempt: expect.any(Number) });
    expect(backoff[0]).not.toHaveProperty('error');
    expect(of('upstream connected')[0]).toMatchObject({ level: LEVEL.info });
  });

  it('logs a tool call at debug with server, tool, duration and outcome, and no arguments', async () => {
    const { client } = await gw.agent();
    const secretArgument = 'argument-that-must-not-be-logged-7f3a';
    await client.callTool({ name: 'alpha__a_echo', arguments: { text: secretArgument } });
    await client.callTool({ name: 'alpha__a_nosuch', arguments: { text: secretArgument } }).catch(() => undefined);
    const calls = lines.filter((l) => l.msg === 'tool call');
    expect(calls[0]).toMatchObject({
      level: LEVEL.debug,
      server: 'alpha',
      tool: 'a_echo',
      outcome: 'ok',
      durationMs: expect.any(Number),
    });
    expect(calls[1]).toMatchObject({ level: LEVEL.debug, outcome: 'failed' });
    expect(text()).not.toContain(secretArgument);
  });
});
