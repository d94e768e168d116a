/**
 * Large requests on a shared upstream (issue 17 item 9, ADR 022 §7): one at a time on a
 * connection, ordinary calls passing them; told without serializing the arguments; and
 * while ordinary requests share the connection, each large one followed by a rest three
 * times as long.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLargeShare, SHARED_WINDOW_MS } from '../../src/gateway/relay/large-share.js';
import { isLargeRequest, LARGE_REQUEST_CHARS } from '../../src/gateway/requests/large-request.js';
import { type Agent, type GatewayHarness, startGateway } from '../support/gateway-harness.js';
import { holdingServer } from '../support/holding-server.js';
import { waitFor } from '../support/wait-for.js';

describe('isLargeRequest', () => {
  it('counts the characters of strings and keys, and gives up counting past a bound', () => {
    expect(isLargeRequest(undefined)).toBe(false);
    expect(isLargeRequest({ text: 'a'.repeat(LARGE_REQUEST_CHARS - 10) })).toBe(false);
    expect(isLargeRequest({ text: 'a'.repeat(LARGE_REQUEST_CHARS + 1) })).toBe(true);
    expect(isLargeRequest({ parts: Array.from({ length: 70 }, () => 'b'.repeat(1_000)) })).toBe(true);
    expect(isLargeRequest({ ['k'.repeat(LARGE_REQUEST_CHARS + 1)]: 1 })).toBe(true);
    // Too many values to count cheaply is large too.
    expect(isLargeRequest({ many: Array.from({ length: 20_000 }, () => 0) })).toBe(true);
    expect(isLargeRequest({ few: [1, 2, 3], nested: { deep: { deeper: 'x' } } })).toBe(false);
  });
});

describe('createLargeShare', () => {
  it('rests a shared connection three times as long as a large request ran, and not an unshared one', () => {
    const share = createLargeShare();
    expect(share.open(0)).toBe(true);
    // Alone: large requests follow each other.
    expect(share.ended(0, 100)).toBe(0);
    expect(share.open(100)).toBe(true);
    share.ordinary(150);
    expect(share.ended(100, 200)).toBe(300);
    expect(share.open(499)).toBe(false);
    expect(share.open(500)).toBe(true);
    // Long after the last ordinary request the connection is no longer shared.
    expect(share.ended(500, 600 + SHARED_WINDOW_MS)).toBe(0);
  });
});

describe('large requests on one upstream connection', () => {
  let gw: GatewayHarness;
  let a: Agent;
  let b: Agent;
  const arrived: string[] = [];
  const held: (() => void)[] = [];
  const blob = 'x'.repeat(LARGE_REQUEST_CHARS + 1);
  const hold = (agent: Agent, who: string, large: boolean) =>
    agent.client.callTool({ name: 'h__hold', arguments: large ? { who, blob } : { who } });

  beforeAll(async () => {
    gw = await startGateway({ servers: { h: { make: () => holdingServer(arrived, held) } } });
    a = await gw.agent({ kind: 'all' }, {}, 'token-a');
    b = await gw.agent({ kind: 'all' }, {}, 'token-b');
  });
  afterAll(() => gw?.stop());

  it('lets one large call in at a time, while ordinary calls of anyone go in beside it', async () => {
    const first = hold(a, 'big1', true);
    const second = hold(b, 'big2', true);
    await waitFor(() => arrived.length === 1, { what: 'the first large call placed' });
    const small = hold(a, 'small', false);
    await waitFor(() => arrived.length === 2, { what: 'the ordinary call placed beside it' });
    expect(arrived).toEqual(['big1', 'small']);
    expect(gw.gateway.admission().find((s) => s.server === 'h')).toMatchObject({ inFlight: 2, waiting: 1 });
    const echoed = await b.client.callTool({ name: 'h__echo', arguments: { text: 'meanwhile' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'meanwhile' }]);
    held.shift()?.();
    // The connection is shared (ordinary calls came): the second large one waits out a rest, then goes in.
    await waitFor(() => arrived.length === 3, { what: 'the second large call placed after the first' });
    expect(arrived[2]).toBe('big2');
    while (held.length > 0) held.shift()?.();
    await Promise.all([first, second, small]);
    expect(gw.hub.getServer('h').state).toBe('connected');
  });
});

describe('a large call in the pause after another, with no room to wait', () => {
  let gw: GatewayHarness;
  let a: Agent;
  const arrived: string[] = [];
  const held: (() => void)[] = [];
  const blob = 'x'.repeat(LARGE_REQUEST_CHARS + 1);

  beforeAll(async () => {
    gw = await startGateway({
      servers: { h: { make: () => holdingServer(arrived, held) } },
      config: { limits: { inFlight: { queuePerToken: 0 } } },
    });
    a = await gw.agent({ kind: 'all' }, {}, 'token-a');
  });
  afterAll(() => gw?.stop());

  it('is refused at once, saying the server pauses between large requests and for how long', async () => {
    const first = a.client.callTool({ name: 'h__hold', arguments: { who: 'big', blob } });
    await waitFor(() => arrived.length === 1, { what: 'the large call placed' });
    // An ordinary call shares the connection; then the large one takes a while and ends.
    await a.client.callTool({ name: 'h__echo', arguments: { text: 'shared' } });
    // Not a wait for an event: the large call's length, which sets the pause (three times it).
    await new Promise((resolve) => setTimeout(resolve, 200));
    held.shift()?.();
    await first;
    const refused = await a.client.callTool({ name: 'h__hold', arguments: { who: 'big2', blob } }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(refused).toMatch(
      /^MCP error -32000: too many requests: server "h" is pausing between large requests \(\d+(\.\d)? s left\) so that its other requests get their turn \(limits\.inFlight\.largePerUpstream\) and this token already has 0 waiting \(limits\.inFlight\.queuePerToken\); retry once some have answered$/,
    );
    expect(arrived).toEqual(['big']);
  });
});
