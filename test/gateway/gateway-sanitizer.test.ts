/** The gateway's sanitizer hands out one sanitized copy per listed array (ADR 006). */
import { describe, expect, it } from 'vitest';
import { createGatewaySanitizer } from '../../src/gateway/gateway-sanitizer.js';
import { testLogger } from '../support/fixtures.js';

describe('createGatewaySanitizer lists', () => {
  it('sanitizes a listed array once and gives the same copy for the same array', () => {
    const clean = createGatewaySanitizer({
      log: testLogger(),
      limits: () => ({ descriptionMaxLength: 500, resultMaxLength: 1_000 }),
    });
    const listed = [{ name: 'a', description: 'plain <!-- hidden --> text', inputSchema: { type: 'object' as const } }];
    const first = clean.tools(listed);
    expect(first[0]?.description).not.toContain('hidden');
    expect(clean.tools(listed)).toBe(first);
    // A new listing (the view changed) is sanitized anew; its unchanged items are reused.
    const next = clean.tools([...listed]);
    expect(next).not.toBe(first);
    expect(next[0]).toBe(first[0]);
  });
});
