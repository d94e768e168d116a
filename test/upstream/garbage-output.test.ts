/**
 * Issue 17, item 11: a stdio upstream writing garbage to stdout between its messages. Each
 * line is skipped and the next read (calls still work); the log gets one warning, then one
 * summary with the count, and neither a stack trace nor a schema error's dump.
 */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { connectUpstream } from '../../src/upstream/connect-upstream.js';
import { fixtureServer } from '../support/fixtures.js';
import { stdioConfig } from '../support/server-config.js';

const GARBAGE_SERVER = fixtureServer('garbage-server.mjs');
const LINES = 300;

/** A real pino logger whose lines are kept, parsed. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const text: string[] = [];
  const log = pino(
    { level: 'warn' },
    {
      write(line: string) {
        text.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return { log, lines, text };
}

describe('an upstream writing garbage to stdout', () => {
  it('is warned about once, then summed up; no stack, no schema dump; calls still answered', async () => {
    const { log, lines, text } = capturingLogger();
    const upstream = await connectUpstream({
      serverId: 'garbage',
      config: stdioConfig({ command: process.execPath, args: [GARBAGE_SERVER], env: { GARBAGE_LINES: String(LINES) } }),
      log,
    });
    try {
      // The garbage was written before the answer to this call: read by the time it comes.
      const result = await upstream.callTool({ name: 'echo', arguments: { text: 'through the noise' } });
      expect(result.content).toEqual([{ type: 'text', text: 'through the noise' }]);
    } finally {
      await upstream.close();
    }
    const warnings = lines.filter(
      (l) => l.msg === 'upstream transport error' || String(l.msg).startsWith('upstream transport error:'),
    );
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({ server: 'garbage', reason: 'not JSON', line: '"this is not json"' });
    expect(warnings[1]).toMatchObject({ repeated: LINES - 1 });
    expect(warnings[1]?.msg).toMatch(new RegExp(`^upstream transport error: ${LINES - 1} more in the last \\d+ s$`));
    expect(text.join('')).not.toMatch(/ZodError|"stack"|invalid_union/);
    expect(text.join('').length).toBeLessThan(2_000);
  }, 30_000);
});
