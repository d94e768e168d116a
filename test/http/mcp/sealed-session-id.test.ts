/**
 * Sealed session ids (issue 22, ADR 039): what one replica seals another opens with the same
 * cluster key; nothing else opens — an altered id, another key, a plain UUID; an id stays
 * header-sized whatever the client's capabilities.
 */
import { describe, expect, it } from 'vitest';
import { createSessionSeal, sessionIdDigest } from '../../../src/http/mcp/sealed-session-id.js';
import { openSealing } from '../../../src/start/open-sealing.js';
import { openTestDb } from '../../support/test-db.js';

const KEY = 'k1-0123456789abcdef0123456789abcdef-cluster';
const session = {
  path: '/mcp',
  owner: 'token:tok_1',
  initialize: {
    protocolVersion: '2025-11-25',
    capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } },
    clientInfo: { name: 'claude-code', version: '2.1.0' },
  },
  openedAt: 1_790_000_000_000,
};

describe('createSessionSeal', () => {
  it('opens on another replica what one sealed, and two sessions never share an id', () => {
    const id = createSessionSeal(KEY).seal(session);
    expect(id.startsWith('v1.')).toBe(true);
    expect(id.length).toBeLessThan(600);
    expect(createSessionSeal(KEY).open(id)).toMatchObject(session);
    expect(createSessionSeal(KEY).seal(session)).not.toBe(id);
  });

  it('opens nothing but its own ids: altered, another key, not sealed', () => {
    const seal = createSessionSeal(KEY);
    const id = seal.seal(session);
    const flipped = `${id.slice(0, 20)}${id[20] === 'A' ? 'B' : 'A'}${id.slice(21)}`;
    expect(seal.open(flipped)).toBeNull();
    expect(createSessionSeal(`${KEY}-other`).open(id)).toBeNull();
    expect(seal.open(crypto.randomUUID())).toBeNull();
    expect(seal.open('v1.')).toBeNull();
    expect(seal.open(`v1.${'A'.repeat(5000)}`)).toBeNull();
  });

  it('keeps only the names of a huge capabilities object, so that the id stays under 1.5 KB', () => {
    const big = {
      ...session,
      initialize: { ...session.initialize, capabilities: { experimental: { blob: 'x'.repeat(5000) }, sampling: {} } },
    };
    const seal = createSessionSeal(KEY);
    const id = seal.seal(big);
    expect(id.length).toBeLessThan(1500);
    expect(seal.open(id)?.initialize.capabilities).toEqual({ experimental: {}, sampling: {} });
  });

  it('digests an id for the closed list without keeping the id', () => {
    const id = createSessionSeal(KEY).seal(session);
    expect(sessionIdDigest(id)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessionIdDigest(id)).not.toContain(id.slice(3, 20));
  });
});

describe('openSealing', () => {
  it('is off without BOTERNITY_CLUSTER_KEY, and refuses a short key in one line', async () => {
    const db = await openTestDb('sqlite');
    try {
      expect(openSealing({}, db.db)).toBeNull();
      expect(() => openSealing({ BOTERNITY_CLUSTER_KEY: 'short' }, db.db)).toThrow(
        /^BOTERNITY_CLUSTER_KEY is 5 characters: use at least 32 random ones/,
      );
      const sealing = openSealing({ BOTERNITY_CLUSTER_KEY: KEY }, db.db);
      const digest = sessionIdDigest('v1.x');
      expect(await sealing?.closed.isClosed(digest)).toBe(false);
      await sealing?.closed.close(digest);
      await sealing?.closed.close(digest);
      expect(await sealing?.closed.isClosed(digest)).toBe(true);
    } finally {
      await db.close();
    }
  });
});
