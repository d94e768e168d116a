/**
 * VS Code's `envFile` (SPEC C1): a dotenv file whose variables a stdio server gets, read when
 * the config is. `KEY=VALUE` lines, `#` comments, an optional `export `, quotes stripped.
 * @module
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';

/** The variables of a dotenv text. */
export function parseEnvText(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    const [, key, value = ''] = match;
    const quoted = /^(['"])(.*)\1$/.exec(value);
    out[key as string] = quoted ? (quoted[2] as string) : value.replace(/\s+#.*$/, '');
  }
  return out;
}

/**
 * The folder `${workspaceFolder}` means for a config file: the parent of `.vscode/` for a
 * file inside one, else the file's own folder.
 */
export function workspaceFolderOf(configDir: string): string {
  return basename(configDir) === '.vscode' ? dirname(configDir) : configDir;
}

/** `path` with VS Code's `${workspaceFolder}` replaced by `workspace`. */
export function expandWorkspaceFolder(path: string, workspace: string): string {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's variable syntax, not a template
  return path.replaceAll('${workspaceFolder}', workspace);
}

/** Read `path` (relative to `configDir`, `${workspaceFolder}` expanded); throws an Error saying why. */
export function readEnvFile(path: string, configDir: string): Record<string, string> {
  const expanded = expandWorkspaceFolder(path, workspaceFolderOf(configDir));
  const full = isAbsolute(expanded) ? expanded : resolve(configDir, expanded);
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`cannot read ${full}: ${code === 'ENOENT' ? 'file not found' : (error as Error).message}`);
  }
  return parseEnvText(text);
}
