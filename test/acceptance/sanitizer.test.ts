/**
 * X4 acceptance: an upstream whose tools carry each attack sample of the corpus, and whose
 * `leak` tool returns each of them, is neutralized through `/mcp` (payloads and invisible
 * characters gone, every result marked `sanitized` in the audit); a clean upstream built from
 * real reference-server descriptions passes byte for byte.
 */
import { readFile } from 'node:fs/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const ATTACK_SERVER = fixtureServer('attack-server.mjs');
const corpus = async <T>(file: string): Promise<T> =>
  JSON.parse(await readFile(new URL(`../support/attack-corpus/${file}`, import.meta.url), 'utf8')) as T;

type AttackSample = { name: string; text: string; expect: string[]; absent: string[] };
type CleanSample = { name: string; text: string };
type AuditEntry = { serverName: string | null; toolName: string | null; sanitized: boolean; success: boolean };

/** Tag characters, zero-width characters, word joiner, BOM, bidi embeddings/overrides/isolates. */
const INVISIBLE = /[\u{E0000}-\u{E007F}\u200B-\u200D\u2060\uFEFF\u202A-\u202E\u2066-\u2069]/u;

/** Every string inside a JSON value. */
const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(strings)
      : value && typeof value === 'object'
        ? Object.values(value).flatMap(strings)
        : [];

/** What in `text` still carries `sample`'s payload (empty when neutralized). */
const leftovers = (sample: AttackSample, text: string): string[] => [
  ...sample.absent.filter((payload) => text.includes(payload)),
  ...(INVISIBLE.test(text) ? ['<invisible character>'] : []),
];

describe('sanitizer through /mcp', { timeout: 60_000 }, () => {
  let svc: TestService;
  let client: Client;
  let attacks: AttackSample[];
  let clean: CleanSample[];

  beforeAll(async () => {
    attacks = await corpus<AttackSample[]>('attacks.json');
    clean = await corpus<CleanSample[]>('clean.json');
    svc = await startTestService({
      mcpServers: {
        evil: { command: process.execPath, args: [ATTACK_SERVER], env: { MODE: 'attack' }, healthIntervalMs: 60_000 },
        good: { command: process.execPath, args: [ATTACK_SERVER], env: { MODE: 'clean' }, healthIntervalMs: 60_000 },
      },
    });
    await waitFor(
      async () => {
        const servers = await svc.servers();
        return servers.length === 2 && servers.every((s) => s.state === 'connected');
      },
      { what: 'evil and good connected', timeoutMs: 30_000 },
    );
    client = await connectHttpClient(`${svc.service.url}/mcp`);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await svc?.stop();
  });

  const listed = async (): Promise<Map<string, Tool>> => {
    const tools = new Map<string, Tool>();
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      for (const t of page.tools) tools.set(t.name, t);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  };

  it('lists every attack tool with its payload and invisible characters removed', async () => {
    const tools = await listed();
    expect(attacks.length).toBeGreaterThan(20);
    const problems: Record<string, string[]> = {};
    attacks.forEach((sample, i) => {
      const tool = tools.get(`evil__attack_${i}`);
      expect(tool, `evil__attack_${i} (${sample.name}) is listed`).toBeDefined();
      const left = leftovers(sample, tool?.description ?? '');
      if (left.length > 0) problems[sample.name] = left;
    });
    expect(problems).toEqual({});
  });

  it('lists every clean tool byte for byte as the upstream describes it', async () => {
    const tools = await listed();
    expect(clean.length).toBeGreaterThan(50);
    const differing: string[] = [];
    clean.forEach((sample, i) => {
      const tool = tools.get(`good__clean_${i}`);
      expect(tool, `good__clean_${i} (${sample.name}) is listed`).toBeDefined();
      if (tool?.description !== sample.text) differing.push(sample.name);
    });
    expect(differing).toEqual([]);
  });

  it('neutralizes every attack sample returned by a tool, in text and structured content', async () => {
    const problems: Record<string, string[]> = {};
    for (const [i, sample] of attacks.entries()) {
      const result = (await client.callTool({ name: 'evil__leak', arguments: { index: i } })) as CallToolResult;
      expect(result.isError, sample.name).toBeFalsy();
      const texts = [
        ...result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])),
        ...strings(result.structuredContent),
      ];
      expect(texts.length, sample.name).toBe(3);
      // A result may be far longer than a description (100 000 characters by default): a
      // payload that only the description limit cuts off stays in a result, flagged.
      const payloads = sample.expect.includes('truncated') ? { ...sample, absent: [] } : sample;
      const left = texts.flatMap((t) => leftovers(payloads, t));
      if (left.length > 0) problems[sample.name] = [...new Set(left)];
    }
    expect(problems).toEqual({});
  });

  it('returns every clean sample unchanged', async () => {
    const differing: string[] = [];
    for (const [i, sample] of clean.entries()) {
      const result = (await client.callTool({ name: 'good__echo_clean', arguments: { index: i } })) as CallToolResult;
      const expected = { index: i, text: sample.text, nested: { list: [sample.text] } };
      const same =
        result.isError !== true &&
        JSON.stringify(result.content) === JSON.stringify([{ type: 'text', text: sample.text }]) &&
        JSON.stringify(result.structuredContent) === JSON.stringify(expected);
      if (!same) differing.push(sample.name);
    }
    expect(differing).toEqual([]);
  });

  it('marks the audit rows: sanitized for every leak call, not for the clean echoes', async () => {
    const rows = async (server: string) =>
      (
        await svc.api<{ entries: AuditEntry[] }>(
          `/api/audit?event=tool_call&server=${server}&tool=${server === 'evil' ? 'leak' : 'echo_clean'}&limit=1000`,
        )
      ).body.entries;
    const leaks = await waitFor(
      async () => {
        const r = await rows('evil');
        return r.length >= attacks.length ? r : null;
      },
      { what: 'audit rows of the leak calls' },
    );
    const echoes = await waitFor(
      async () => {
        const r = await rows('good');
        return r.length >= clean.length ? r : null;
      },
      { what: 'audit rows of the echo_clean calls' },
    );
    expect(leaks).toHaveLength(attacks.length);
    expect(leaks.filter((r) => !r.sanitized)).toEqual([]);
    expect(leaks.every((r) => r.success)).toBe(true);
    expect(echoes).toHaveLength(clean.length);
    expect(echoes.filter((r) => r.sanitized)).toEqual([]);
    expect(echoes.every((r) => r.success)).toBe(true);
  });
});
