/**
 * A primed transport hands on a started stream with what was read from it, and says when the
 * stream has closed through its own hook, after its owner's `onclose` (issue 20: nobody
 * re-wraps the callback the owner set).
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { PrimedTransport } from '../../src/cli/primed-transport.js';

const ping = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('PrimedTransport', () => {
  it('delivers what was read first, then the rest, each seen by its observer', async () => {
    const [client, inner] = InMemoryTransport.createLinkedPair();
    await inner.start();
    const read = [ping(1)];
    const primed = new PrimedTransport(inner, read);
    const observed: unknown[] = [];
    const delivered: unknown[] = [];
    primed.observe = (message) => observed.push(message);
    primed.onmessage = (message) => delivered.push(message);
    await primed.start();
    await client.send(ping(2));
    await expect.poll(() => delivered).toEqual([ping(1), ping(2)]);
    expect(observed).toEqual([ping(1), ping(2)]);
  });

  it("runs afterClose once the stream closes, after the owner's onclose, and the owner's onclose stays its own", async () => {
    const [client, inner] = InMemoryTransport.createLinkedPair();
    await inner.start();
    const primed = new PrimedTransport(inner, []);
    const order: string[] = [];
    const ownersClose = () => order.push('owner');
    primed.onclose = ownersClose;
    primed.afterClose = () => order.push('after');
    await primed.start();
    await client.close();
    await expect.poll(() => order).toEqual(['owner', 'after']);
    expect(primed.onclose).toBe(ownersClose);
  });
});
