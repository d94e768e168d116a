/**
 * Where the data directory and the config file are (SPEC section 7): flags first, then
 * environment variables, then `./boternity.json` if present, then `<home>/boternity.json`.
 * @module
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The config file's name, in the working directory or in the home directory. */
export const CONFIG_FILE_NAME = 'boternity.json';

/** Where a config path came from, for `bnity serve`'s start-up banner and error messages. */
export type ConfigPathSource = 'flag' | 'env' | 'cwd' | 'home';

/** The data directory: `--home`, else `BOTERNITY_HOME`, else `~/.boternity`; always absolute. */
export function resolveHome(opts: { home?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): string {
  const env = opts.env ?? process.env;
  const chosen = nonEmpty(opts.home) ?? nonEmpty(env.BOTERNITY_HOME) ?? join(homedir(), '.boternity');
  return resolve(opts.cwd ?? process.cwd(), expandTilde(chosen));
}

/** The config file: `--config`, else `BOTERNITY_CONFIG`, else `./boternity.json` if it exists, else `<home>/boternity.json`. */
export function resolveConfigPath(opts: { config?: string; home: string; cwd?: string; env?: NodeJS.ProcessEnv }): {
  path: string;
  source: ConfigPathSource;
} {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const flag = nonEmpty(opts.config);
  if (flag !== undefined) return { path: resolve(cwd, expandTilde(flag)), source: 'flag' };
  const fromEnv = nonEmpty(env.BOTERNITY_CONFIG);
  if (fromEnv !== undefined) return { path: resolve(cwd, expandTilde(fromEnv)), source: 'env' };
  const local = join(cwd, CONFIG_FILE_NAME);
  if (isFile(local)) return { path: resolve(local), source: 'cwd' };
  return { path: resolve(cwd, expandTilde(opts.home), CONFIG_FILE_NAME), source: 'home' };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** `~/x` → `<homedir>/x`: a quoted variable or a config file does not get the shell's expansion. */
function expandTilde(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
