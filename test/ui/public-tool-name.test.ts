/**
 * The page's public tool names agree with the gateway's `toPublicName` (the names a bot's
 * workflow steps call): plain, with characters outside the alphabet, and over 64 characters
 * (hashed with SubtleCrypto as the gateway hashes with node:crypto).
 */
import { describe, expect, it } from 'vitest';
import { toPublicName } from '../../src/gateway/views/public-names.js';
import { publicToolName } from '../../src/ui/public-tool-name.js';

describe('publicToolName', () => {
  it("is the gateway's public name", async () => {
    const pairs: [string, string][] = [
      ['fs', 'read_file'],
      ['my.server', 'get weather/now'],
      ['a-very-long-server-name-for-the-test', 'and_a_tool_whose_name_is_long_enough_to_need_the_hash'],
      ['x', 'ü'.repeat(70)],
    ];
    for (const [server, tool] of pairs) expect(await publicToolName(server, tool)).toBe(toPublicName(server, tool));
    expect((await publicToolName(pairs[2]?.[0] ?? '', pairs[2]?.[1] ?? ''))?.length).toBe(64);
  });
});
