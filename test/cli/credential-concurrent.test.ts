import { describe, expect, it } from 'vitest';
import { openKeystore } from '../../src/storage/keystore.js';
import { runBnity } from '../support/serve-process.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs('bnity-credential-race-');

describe('bnity mcp credential set, 20 at once', { timeout: 120_000 }, () => {
  it('keeps every one of 20 concurrent writers (the keystore is locked across processes)', async () => {
    const home = await tempDir();
    const env = { BOTERNITY_KEYSTORE_KEY: '', BOTERNITY_HOME: '' };
    const names = Array.from({ length: 20 }, (_, i) => `cred-${i}`);
    const runs = await Promise.all(
      names.map((name) => runBnity(['mcp', 'credential', 'set', name, '--home', home], env, undefined, `s-${name}\n`)),
    );
    for (const run of runs) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    }
    const keystore = await openKeystore({ home, env: {} });
    expect(await keystore.names()).toEqual([...names].sort());
    for (const name of names) expect(await keystore.get(name)).toBe(`s-${name}`);
  });
});
