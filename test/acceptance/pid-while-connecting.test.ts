/**
 * SPEC §7: `pid` in `/api/servers` is the stdio child's — while it connects too (a slow
 * start, its initialize), not only once connected; null for a server with no child.
 */
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/upstream/process-tree.js';
import { TINY_SERVER } from '../support/fixtures.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

describe('pid while connecting', { timeout: 60_000 }, () => {
  let svc: TestService;
  let go: string;
  beforeAll(async () => {
    go = join(tmpdir(), `bnity-go-${process.pid}-${Date.now()}`);
    svc = await startTestService({
      mcpServers: {
        // Answers nothing, its initialize included, until the test says go.
        slow: { command: process.execPath, args: [TINY_SERVER], env: { TINY_START_AFTER_FILE: go } },
        remote: { url: 'http://127.0.0.1:9/mcp', type: 'http' },
      },
    });
  });
  afterAll(async () => {
    await svc?.stop();
    await rm(go, { force: true });
  });

  it("shows the child's pid while it connects, the same once connected; null for a remote server", async () => {
    const connecting = await waitFor(
      async () => {
        const slow = await svc.server('slow');
        return slow?.state === 'connecting' && slow.pid !== null ? slow : null;
      },
      { what: 'slow connecting with a pid' },
    );
    expect(isAlive(connecting.pid as number)).toBe(true);
    await writeFile(go, '');
    const connected = await waitFor(
      async () => {
        const slow = await svc.server('slow');
        return slow?.state === 'connected' ? slow : null;
      },
      { what: 'slow connected' },
    );
    expect(connected.pid).toBe(connecting.pid);
    expect((await svc.server('remote'))?.pid).toBeNull();
  });
});
