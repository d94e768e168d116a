import { describe, expect, it } from 'vitest';
import { diffServers, sameSpec } from '../../machines/index.js';
import { makeSpec } from './fixtures.js';

describe('sameSpec', () => {
  it('ignores key order at every depth', () => {
    expect(sameSpec({ a: 1, b: { c: [1, { d: 'x', e: null }] } }, { b: { c: [1, { e: null, d: 'x' }] }, a: 1 })).toBe(
      true,
    );
  });

  it('sees a changed, added or removed value anywhere', () => {
    const base = { a: 1, b: { c: [1, 2] } };
    expect(sameSpec(base, { a: 2, b: { c: [1, 2] } })).toBe(false);
    expect(sameSpec(base, { a: 1, b: { c: [2, 1] } })).toBe(false);
    expect(sameSpec(base, { a: 1, b: { c: [1, 2, 3] } })).toBe(false);
    expect(sameSpec(base, { a: 1, b: { c: [1, 2] }, d: 0 })).toBe(false);
    expect(sameSpec({ a: null }, { a: {} })).toBe(false);
    expect(sameSpec({ a: [] }, { a: {} })).toBe(false);
    expect(sameSpec({ a: '1' }, { a: 1 })).toBe(false);
  });

  it('treats a key holding undefined as absent, as JSON does', () => {
    expect(sameSpec({ a: 1, maxAttempts: undefined }, { a: 1 })).toBe(true);
    expect(sameSpec({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(sameSpec({ a: undefined }, { b: undefined })).toBe(true);
  });

  it('compares whole server specs', () => {
    expect(sameSpec(makeSpec(), makeSpec())).toBe(true);
    expect(sameSpec(makeSpec(), makeSpec({ backoff: { capMs: 1 } }))).toBe(false);
  });
});

describe('diffServers', () => {
  it('sorts names to add, remove and update, leaving equal ones alone', () => {
    const running = { keep: makeSpec(), zed: makeSpec(), gone: makeSpec(), alpha: makeSpec() };
    const desired = {
      keep: makeSpec(),
      zed: makeSpec({ pingTimeoutMs: 1 }),
      alpha: makeSpec({ enabled: false }),
      new2: makeSpec(),
      new1: makeSpec(),
    };
    expect(diffServers(desired, running)).toEqual({
      add: ['new1', 'new2'],
      remove: ['gone'],
      update: ['alpha', 'zed'],
    });
  });

  it('finds nothing to do for the same config', () => {
    const servers = { a: makeSpec(), b: makeSpec({ enabled: false }) };
    expect(diffServers(servers, structuredClone(servers))).toEqual({ add: [], remove: [], update: [] });
  });
});
