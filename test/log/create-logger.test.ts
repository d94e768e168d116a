import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { maskSecrets } from '../../src/log/create-logger.js';

const PRETTY = fileURLToPath(new URL('../fixtures/pretty-logger.ts', import.meta.url));

/** What the fixture wrote to stdout and stderr, once it exited (0 required). */
function runPretty(to: 'stdout' | 'stderr'): Promise<{ out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', PRETTY, to], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const result = { out: Buffer.concat(out).toString('utf8'), err: Buffer.concat(err).toString('utf8') };
      if (code === 0) resolve(result);
      else reject(new Error(`exit ${code}: ${result.err.slice(0, 2000)}`));
    });
  });
}

describe('maskSecrets', () => {
  it('replaces every occurrence of every known secret, and leaves other text alone', () => {
    const secrets = new Set(['s3cr3t-token', 'other-key']);
    const line = '{"msg":"upstream transport error","err":"denied for Bearer s3cr3t-token (s3cr3t-token)"}';
    expect(maskSecrets(line, secrets)).toBe(
      '{"msg":"upstream transport error","err":"denied for Bearer [redacted] ([redacted])"}',
    );
    expect(maskSecrets('nothing here', secrets)).toBe('nothing here');
  });

  it('ignores secrets too short to mask safely', () => {
    expect(maskSecrets('abc abc', new Set(['abc']))).toBe('abc abc');
  });
});

describe('createLogger for a terminal (pretty)', () => {
  it('writes formatted lines on its own thread, synchronously, redacted, before an immediate exit', async () => {
    const { out, err } = await runPretty('stdout');
    const lines = out.split('\n').filter(Boolean);
    // One line with the message, then its fields; none of it JSON, nothing on stderr.
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] .*INFO.*: .*pretty hello/);
    expect(out).toMatch(/server.*: .*"fs"/);
    expect(out).toMatch(/token.*: .*"\[Redacted\]"/);
    expect(out).not.toContain('tok-visible-nowhere');
    expect(out).not.toContain('below the level');
    expect(() => JSON.parse(lines[0] ?? '')).toThrow();
    expect(err).toBe('');
  });

  it('writes to stderr when stdout carries MCP', async () => {
    const { out, err } = await runPretty('stderr');
    expect(out).toBe('');
    expect(err).toMatch(/INFO.*: .*pretty hello/);
  });
});
