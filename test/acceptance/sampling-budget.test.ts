/**
 * X6 acceptance: a sampling-heavy upstream stops being served once its
 * `samplingBudgetTokens` is spent, with a clear error; the usage is shown in
 * `/api/servers`, audited, survives a restart, and `POST …/sampling/reset` clears it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRow } from '../../src/storage/audit-query.js';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const SERVER = 'sampler';
const BUDGET = 60;
const SPENT = new RegExp(`sampling budget of server "${SERVER}" is spent`);
const config = {
  mcpServers: {
    [SERVER]: {
      command: process.execPath,
      args: [GATEWAY_SERVER],
      healthIntervalMs: 60_000,
      samplingBudgetTokens: BUDGET,
    },
  },
};

type Sampling = { samplingUsedTokens: number; samplingBudgetTokens: number | null };

/** What one `ask` gave: its answer text, or the failure's text (error result or rejection). */
type Outcome = { ok: boolean; text: string };

describe('sampling budget', () => {
  let home: string;
  let svc: TestService;
  let client: Client;
  let sampled = 0;

  const start = async () => {
    svc = await startTestService(config, { home });
    await waitFor(async () => (await svc.server(SERVER))?.state === 'connected', {
      what: `${SERVER} connected`,
      timeoutMs: 20_000,
    });
    client = await connectHttpClient(`${svc.service.url}/mcp`, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => {
      sampled += 1;
      return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'ok' } };
    });
  };
  const stop = async () => {
    await client?.close();
    await svc?.stop();
  };
  const ask = async (prompt = 'hi'): Promise<Outcome> => {
    try {
      const result = (await client.callTool({ name: `${SERVER}__ask`, arguments: { prompt } })) as CallToolResult;
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      return { ok: result.isError !== true, text };
    } catch (error) {
      return { ok: false, text: error instanceof Error ? error.message : String(error) };
    }
  };
  const usage = async (): Promise<Sampling> => {
    const status = (await svc.server(SERVER)) as unknown as Sampling | undefined;
    if (!status) throw new Error(`${SERVER} not in /api/servers`);
    return { samplingUsedTokens: status.samplingUsedTokens, samplingBudgetTokens: status.samplingBudgetTokens };
  };

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'bnity-sampling-'));
    await start();
  }, 60_000);
  afterAll(async () => {
    await stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  let spentAt = 0;

  it('serves sampling until the budget is spent, then refuses with a clear error', async () => {
    expect(await usage()).toEqual({ samplingUsedTokens: 0, samplingBudgetTokens: BUDGET });
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 50; i += 1) {
      const outcome = await ask();
      outcomes.push(outcome);
      if (!outcome.ok) break;
    }
    const failed = outcomes.at(-1);
    expect(failed?.ok).toBe(false);
    expect(failed?.text).toMatch(SPENT);
    // Some calls got through before, each answered by the agent.
    const served = outcomes.slice(0, -1);
    expect(served.length).toBeGreaterThan(0);
    for (const outcome of served) expect(outcome.text).toBe('answer:ok');
    // The refused request never reached the agent.
    expect(sampled).toBe(served.length);

    const after = await usage();
    expect(after.samplingBudgetTokens).toBe(BUDGET);
    // Each request reserves its prompt and maxTokens first, so the budget is never overrun:
    // the refused one would not have fitted in what was left.
    expect(after.samplingUsedTokens).toBeGreaterThan(0);
    expect(after.samplingUsedTokens).toBeLessThanOrEqual(BUDGET);
    spentAt = after.samplingUsedTokens;

    // Still refused on the next try.
    const again = await ask();
    expect(again.ok).toBe(false);
    expect(again.text).toMatch(SPENT);
    expect(sampled).toBe(served.length);
  }, 60_000);

  it('audits sampling requests with their token usage, and the refusals', async () => {
    const entries = await waitFor(
      async () => {
        const { body } = await svc.api<{ entries: AuditRow[] }>('/api/audit?event=sampling_request&limit=1000');
        return body.entries.some((e) => !e.success) ? body.entries : null;
      },
      { what: 'sampling_request audit rows', timeoutMs: 10_000 },
    );
    const charged = entries.filter((e) => e.success);
    expect(charged.length).toBe(sampled);
    for (const entry of charged) {
      expect(entry).toMatchObject({ direction: 'client', serverName: SERVER, clientId: 'admin' });
      expect(entry.tokenUsage).toBeGreaterThan(0);
    }
    expect(charged.reduce((sum, e) => sum + (e.tokenUsage ?? 0), 0)).toBe(spentAt);
    const refused = entries.filter((e) => !e.success);
    expect(refused.length).toBeGreaterThan(0);
    for (const entry of refused) {
      expect(entry.error).toMatch(SPENT);
      expect(entry.tokenUsage).toBeNull();
    }
  });

  it('keeps the usage across a restart on the same home', async () => {
    await stop();
    await start();
    expect(await usage()).toEqual({ samplingUsedTokens: spentAt, samplingBudgetTokens: BUDGET });
    const outcome = await ask();
    expect(outcome.ok).toBe(false);
    expect(outcome.text).toMatch(SPENT);
  }, 60_000);

  it('POST /api/servers/{name}/sampling/reset clears the usage and sampling works again', async () => {
    const reset = await svc.api<{ server: Sampling & { name: string } }>(`/api/servers/${SERVER}/sampling/reset`, {
      method: 'POST',
    });
    expect(reset.status).toBe(200);
    expect(reset.body.server).toMatchObject({ name: SERVER, samplingUsedTokens: 0, samplingBudgetTokens: BUDGET });
    expect(await usage()).toEqual({ samplingUsedTokens: 0, samplingBudgetTokens: BUDGET });
    const before = sampled;
    expect(await ask()).toEqual({ ok: true, text: 'answer:ok' });
    expect(sampled).toBe(before + 1);
    const now = (await usage()).samplingUsedTokens;
    expect(now).toBeGreaterThan(0);
    expect(now).toBeLessThan(BUDGET);

    // The reset itself is persisted: a restart starts from the new usage, not the old one.
    await stop();
    await start();
    expect((await usage()).samplingUsedTokens).toBe(now);
    expect((await ask()).ok).toBe(true);
  }, 60_000);

  it('an unknown server cannot be reset', async () => {
    expect((await svc.api('/api/servers/nope/sampling/reset', { method: 'POST' })).status).toBe(404);
  });
});
