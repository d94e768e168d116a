/**
 * Issue 17 item 15: temp files left beside the config file and the keystore by a write killed
 * half-way (kill -9 between the temp file and the rename) are removed at the next start:
 * only files named as the atomic writer names them, only when their writer is gone (or the
 * file is older than any write takes); a user's file is never touched.
 */
import { spawnSync } from 'node:child_process';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeStaleTemps } from '../../src/config/remove-stale-temps.js';
import { tempFileName } from '../../src/config/temp-file-name.js';
import { writeFileAtomic } from '../../src/config/write-file-atomic.js';
import { useTempDirs } from '../support/temp-dir.js';
import { startTestService } from '../support/test-service.js';

const tempDir = useTempDirs('bnity-temps-');

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('removeStaleTemps', () => {
  it("removes a dead writer's temp files, and nothing else", async () => {
    const dir = await tempDir();
    const path = join(dir, 'boternity.json');
    await writeFile(path, '{}');
    const dead = deadPid();
    const alive = process.ppid;
    const ours = {
      dead: tempFileName(path, dead, 'a1b2c3d4e5f6'),
      aliveFresh: tempFileName(path, alive, '00112233aabb'),
      aliveOld: tempFileName(path, alive, 'ffeeddccbbaa'),
      mine: tempFileName(path, process.pid, '0123456789ab'),
    };
    const users = [
      '.boternity.json.swp',
      '.boternity.json.123.tmp',
      `.boternity.json.${dead}.A1B2C3D4E5F6.tmp`,
      `boternity.json.${dead}.a1b2c3d4e5f6.tmp`,
      `.other.json.${dead}.a1b2c3d4e5f6.tmp`,
      `.boternity.json.${dead}.a1b2c3d4e5f6.tmp.bak`,
    ];
    for (const name of [...Object.values(ours), ...users]) await writeFile(join(dir, name), 'x');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(join(dir, ours.aliveOld), twoHoursAgo, twoHoursAgo);

    expect((await removeStaleTemps(path)).sort()).toEqual([ours.dead, ours.aliveOld].sort());
    expect((await readdir(dir)).sort()).toEqual(['boternity.json', ours.aliveFresh, ours.mine, ...users].sort());
  });

  it('names the temp files of the atomic writer the way it recognises them', async () => {
    const dir = await tempDir();
    const path = join(dir, 'keystore.enc');
    // A write that is never committed leaves nothing either.
    expect(await writeFileAtomic(path, 'x', { commitIf: () => false })).toBe(false);
    expect(await readdir(dir)).toEqual([]);
    expect(tempFileName(path, 42, 'abcdef012345')).toBe('.keystore.enc.42.abcdef012345.tmp');
  });

  it('runs at the start of the service, for the config file and the keystore', async () => {
    const home = await tempDir();
    const dead = deadPid();
    const config = tempFileName(join(home, 'boternity.json'), dead, '0a0b0c0d0e0f');
    const keystore = tempFileName(join(home, 'keystore.enc'), dead, 'f0e0d0c0b0a0');
    await writeFile(join(home, config), '{"half": ');
    await writeFile(join(home, keystore), '{"version": 1, "ent');
    await writeFile(join(home, 'notes.tmp'), 'mine');
    const svc = await startTestService({ mcpServers: {} }, { home });
    try {
      const left = await readdir(home);
      expect(left).not.toContain(config);
      expect(left).not.toContain(keystore);
      expect(left).toContain('notes.tmp');
    } finally {
      await svc.stop();
    }
  });
});
