/**
 * "Session not found" (SPEC G1, X1): one answer, built in one place (`SESSION_NOT_FOUND`),
 * which the endpoint, the transport, the session checks and a stream ending with its session
 * all answer with.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SESSION_NOT_FOUND } from '../../../src/http/mcp/check-mcp-session.js';

const src = join(import.meta.dirname, '../../../src');
const sources = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));

describe('Session not found', () => {
  it('is the SDK answer, 404 and -32001', () => {
    expect(SESSION_NOT_FOUND).toEqual({ status: 404, code: -32001, message: 'Session not found' });
  });

  it('is built in check-mcp-session.ts alone', () => {
    const building = sources.filter((file) => readFileSync(join(src, file), 'utf8').includes("'Session not found'"));
    expect(building.map((file) => relative(src, join(src, file)))).toEqual(['http/mcp/check-mcp-session.ts']);
  });
});
