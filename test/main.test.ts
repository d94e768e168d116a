import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './support/test-service.js';

describe('startService', () => {
  let service: TestService | undefined;
  let home: string | undefined;
  afterEach(async () => {
    await service?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('tightens an existing home directory to 0700', async () => {
    home = await mkdtemp(join(tmpdir(), 'bnity-home-'));
    await chmod(home, 0o755);
    service = await startTestService({ mcpServers: {} }, { home });
    expect((await stat(home)).mode & 0o777).toBe(0o700);
  });
});
