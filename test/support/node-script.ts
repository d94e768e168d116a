/**
 * A script run in a node of its own, from the repository's root (it imports the compiled
 * `dist/src/`, which the run's global setup built: loading the TypeScript through tsx cost each
 * such node 0.6 s more of CPU): what V8's process-wide flags do can only be seen in a fresh
 * process. The script gets `arg` as `process.argv[1]` and prints its answer as JSON.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';

/** Run `script` with node's `flags` and `arg`; its JSON output. */
export function runNodeScript<T>(script: string, arg: string, flags: readonly string[] = []): T {
  const child = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script, arg], {
    encoding: 'utf8',
    cwd: `${import.meta.dirname}/../..`,
  });
  // An unknown V8 flag is reported on stderr (a Node whose V8 dropped it would say so here).
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as T;
}
