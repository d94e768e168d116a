/**
 * The config written on first run (SPEC section 7): three bundled presets that work offline,
 * so a fresh `bnity serve` has live servers to show.
 * @module
 */
import { access, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createFileAtomic } from './write-file-atomic.js';

const FILES_README = `This folder is served by the "filesystem" MCP server that boternity set up on first run.
Agents connected to boternity can list, read and write files here.
Change or remove the server in boternity.json.
`;

/** The default config for a data directory: memory, filesystem (on `<home>/files`) and everything. */
export function defaultConfig(home: string): { mcpServers: Record<string, Record<string, unknown>> } {
  return {
    mcpServers: {
      memory: { preset: 'memory', env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') } },
      filesystem: { preset: 'filesystem', args: [join(home, 'files')] },
      everything: { preset: 'everything' },
    },
  };
}

/** Write the default config to `file` unless it exists (never overwrites); true if written. */
export async function writeDefaultConfig(file: string, home: string): Promise<boolean> {
  if (await exists(file)) return false;
  const files = join(home, 'files');
  await mkdir(files, { recursive: true });
  await writeFile(join(files, 'README.txt'), FILES_README, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  await mkdir(dirname(file), { recursive: true });
  // Two first starts may race here: exactly one creates the file, neither clobbers it.
  return createFileAtomic(file, `${JSON.stringify(defaultConfig(home), null, 2)}\n`, { mode: 0o600 });
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
