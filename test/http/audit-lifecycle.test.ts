/**
 * Issue 18 item 4: the audit has rows for servers connecting, failing and being retried,
 * and `GET /api/audit?bot=` (the bot tab's audit) shows those of the servers in the bot's
 * view beside the bot's own rows, so a user sees why a tool of the bot was unavailable.
 * The real service, a real stdio server and one that exits at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditRow } from '../../src/storage/audit-query.js';
import { GATEWAY_SERVER } from '../support/fixtures.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const node = process.execPath;
const quiet = { stderr: 'ignore' } as const;

describe('server lifecycle rows in the audit', () => {
  let svc: TestService;
  const audit = async (query: string) => (await svc.api<{ entries: AuditRow[] }>(`/api/audit?${query}`)).body.entries;

  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: {
        alpha: { command: node, args: [GATEWAY_SERVER], env: { TOOL_PREFIX: 'a_' }, ...quiet },
        broken: {
          command: node,
          args: ['-e', 'process.stderr.write("no database here\\n"); process.exit(3)'],
          backoff: { baseMs: 200, capMs: 400 },
          ...quiet,
        },
        other: { command: node, args: ['-e', 'process.exit(4)'], backoff: { baseMs: 200, capMs: 400 }, ...quiet },
      },
      bots: { scout: { removedServers: ['other'] } },
    });
  }, 30_000);
  afterAll(() => svc?.stop());

  it('writes connected and reconnect-scheduled rows with the error; ?bot= shows those of its servers only', async () => {
    const rows = await waitFor(
      async () => {
        const found = await audit('bot=scout&limit=100');
        const kinds = new Set(found.map((r) => `${r.serverName}:${r.eventType}`));
        return kinds.has('alpha:server_connected') && kinds.has('broken:server_reconnect_scheduled') ? found : null;
      },
      { what: 'lifecycle rows of scout servers' },
    );
    const retried = rows.find((r) => r.serverName === 'broken' && r.eventType === 'server_reconnect_scheduled');
    expect(retried).toMatchObject({ direction: 'client', success: false, botId: null });
    expect(retried?.error).toMatch(/exited with code 3.*no database here/);
    expect(rows.find((r) => r.serverName === 'alpha' && r.eventType === 'server_connected')).toMatchObject({
      success: true,
    });
    // `other` is not in scout's view: its rows are in the audit, not in scout's.
    expect(rows.some((r) => r.serverName === 'other')).toBe(false);
    await waitFor(async () => (await audit('server=other&event=server_reconnect_scheduled')).length > 0, {
      what: 'rows of other',
    });
    // Filtering on the event works as for any row.
    const onlyRetries = await audit('bot=scout&event=server_reconnect_scheduled');
    expect(onlyRetries.every((r) => r.eventType === 'server_reconnect_scheduled' && r.serverName === 'broken')).toBe(
      true,
    );
  });

  it('keeps a flapping server bounded: one row at once per kind within the window, whatever the retries', async () => {
    // Several retries happen in a few seconds (backoff 200–400 ms); the window is 60 s.
    await waitFor(async () => ((await svc.server('broken'))?.attempt ?? 0) >= 5, { what: 'five attempts' });
    const rows = await audit('server=broken&event=server_reconnect_scheduled');
    expect(rows).toHaveLength(1);
  });
});
