/**
 * The process's V8 tuning belongs to `bnity serve` (issue 20): it tunes its own process
 * unless the config says `runtime.tuneProcess: false`; the stdio bridge, which also runs the
 * service in-process, leaves its process as Node made it; a bad value is one line, exit 1.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBnity, spawnServe, startAndStopStdioBridge } from '../support/serve-process.js';
import { waitFor } from '../support/wait-for.js';

const TUNED = 'process tuned for a long-running service';
const homes: string[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});

/** A home with a config file of `rest` and no servers. */
async function homeWith(rest: Record<string, unknown>) {
  const home = await mkdtemp(join(tmpdir(), 'bnity-tune-'));
  homes.push(home);
  const config = join(home, 'boternity.json');
  await writeFile(config, JSON.stringify({ mcpServers: {}, ...rest }));
  return { home, config };
}

/** Run `bnity serve` until it has started; its log (stdout) up to then, after a clean stop. */
async function serveLog(rest: Record<string, unknown>): Promise<string> {
  const { home, config } = await homeWith(rest);
  const serve = await spawnServe(['--port', '0', '--config', config, '--home', home], {
    BOTERNITY_LOG_LEVEL: 'info',
    BOTERNITY_ADMIN_TOKEN: 'tune-test',
  });
  await waitFor(() => serve.stdout().includes('boternity started'), { what: 'the start to be logged' });
  serve.child.kill('SIGTERM');
  expect((await serve.exited).code).toBe(0);
  return serve.stdout();
}

describe('runtime.tuneProcess', () => {
  it('bnity serve tunes its process by default', async () => {
    expect(await serveLog({})).toContain(TUNED);
  });

  it('bnity serve leaves the process alone with runtime.tuneProcess false', async () => {
    const log = await serveLog({ runtime: { tuneProcess: false } });
    expect(log).toContain('boternity started');
    expect(log).not.toContain(TUNED);
  });

  it('the stdio bridge (bnity mcp serve --stdio) never tunes the process it runs in', async () => {
    const { home, config } = await homeWith({ runtime: { tuneProcess: true } });
    const { code, stderr } = await startAndStopStdioBridge(config, home);
    expect(code).toBe(0);
    expect(stderr).not.toContain(TUNED);
  });

  it('refuses a value that is not a boolean with one line naming the key, and starts nothing', async () => {
    const { home, config } = await homeWith({ runtime: { tuneProcess: 'yes' } });
    const result = await runBnity(['serve', '--port', '0', '--config', config, '--home', home], {
      BOTERNITY_ADMIN_TOKEN: 'tune-test',
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/runtime\.tuneProcess: expected a boolean \(true or false\), got string "yes"/);
    expect(result.stdout).not.toContain('boternity is running');
  });
});
