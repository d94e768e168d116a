import { describe, expect, it } from 'vitest';
import { deferPeer } from '../../src/upstream/defer-peer.js';
import type { UpstreamPeer } from '../../src/upstream/types.js';

/** A peer that records what reached it. */
function recordingPeer(seen: string[]): UpstreamPeer {
  return {
    capabilities: { roots: {} },
    createMessage: async (server) => {
      seen.push(`sample ${server}`);
      return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' };
    },
    elicit: async (server) => {
      seen.push(`elicit ${server}`);
      return { action: 'decline' };
    },
    listRoots: async (server) => {
      seen.push(`roots ${server}`);
      return { roots: [] };
    },
    logged: async (server, params) => {
      seen.push(`log ${server} ${String(params.data)}`);
    },
    resourceUpdated: (server, uri) => {
      seen.push(`updated ${server} ${uri}`);
    },
  };
}

describe('deferPeer', () => {
  it('declares its capabilities at once and hands what came early to the peer once built, in order', async () => {
    const seen: string[] = [];
    let build!: (peer: UpstreamPeer) => void;
    const peer = deferPeer(
      new Promise((resolve) => {
        build = resolve;
      }),
      { sampling: {} },
    );
    expect(peer.capabilities).toEqual({ sampling: {} });
    const signal = new AbortController().signal;
    const early = [
      peer.logged('s', { level: 'info', data: 'one' }),
      peer.listRoots('s', undefined, signal),
      peer.elicit('s', { message: 'm', requestedSchema: { type: 'object', properties: {} } }, signal),
    ];
    peer.resourceUpdated('s', 'file:///x');
    const sampled = peer.createMessage('s', { messages: [], maxTokens: 1 }, signal);
    expect(seen).toEqual([]);
    build(recordingPeer(seen));
    await Promise.all([...early, sampled]);
    expect(seen).toEqual(['log s one', 'roots s', 'elicit s', 'updated s file:///x', 'sample s']);
  });

  it('refuses the requests when the peer never comes, and drops the notifications quietly', async () => {
    deferPeer(Promise.reject(new Error('never used')), {});
    const peer = deferPeer(Promise.reject(new Error('start-up failed')), {});
    peer.resourceUpdated('s', 'file:///x');
    await expect(peer.listRoots('s', undefined, new AbortController().signal)).rejects.toThrow('start-up failed');
  });
});
