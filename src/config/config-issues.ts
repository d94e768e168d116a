/**
 * Config problems as `ConfigIssue`s and the one readable, multi-line `ConfigError` built from
 * them (SPEC C2): every line names the file's path to the field, e.g.
 * `mcpServers.web.type: unknown transport "websocket" (…)`.
 * @module
 */
import { ConfigError, type ConfigIssue } from '../errors.js';

/** A JSON path from the root of the file: object keys and array indexes. */
export type JsonPath = readonly (string | number)[];

/** A problem found at a JSON path, before it is split into server and field. */
export type PathIssue = { readonly path: JsonPath; readonly message: string };

const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;

/** `['headers', 'X-Key']` → `headers.X-Key`; `['args', 0]` → `args[0]`; odd keys are quoted. */
export function formatJsonPath(path: JsonPath): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (PLAIN_KEY.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

/** Split a root path into server and field: `mcpServers.<name>.<field…>` or a top-level field. */
export function toConfigIssue(issue: PathIssue): ConfigIssue {
  const [first, server, ...rest] = issue.path;
  if ((first === 'mcpServers' || first === 'servers') && typeof server === 'string' && issue.path.length > 1) {
    return { server, field: formatJsonPath(rest), message: issue.message };
  }
  return { server: null, field: formatJsonPath(issue.path), message: issue.message };
}

/** One issue as one line: `mcpServers.<server>.<field> (line 4, column 7): <message>`; `(root)` for the file itself. */
export function formatConfigIssue(issue: ConfigIssue): string {
  const prefix = issue.server === null ? '' : formatJsonPath(['mcpServers', issue.server]);
  const joiner = prefix === '' || issue.field === '' || issue.field.startsWith('[') ? '' : '.';
  const where = `${prefix}${joiner}${issue.field}`;
  const at = issue.line === undefined ? '' : ` (line ${issue.line}, column ${issue.column})`;
  return `${where === '' ? '(root)' : where}${at}: ${issue.message}`;
}

/** One path issue as one line: `servers.web.url: <message>`; `(root)` for the file itself. */
export function formatPathIssue(issue: PathIssue): string {
  const where = formatJsonPath(issue.path);
  return `${where === '' ? '(root)' : where}: ${issue.message}`;
}

/** Prefix every issue's path, e.g. with `['mcpServers', name]`. */
export function prefixIssues(prefix: JsonPath, issues: readonly PathIssue[]): PathIssue[] {
  return issues.map((issue) => ({ path: [...prefix, ...issue.path], message: issue.message }));
}

/** Where a JSON path is in the text parsed (1-based), when the caller knows the text. */
export type LocatePath = (path: JsonPath) => { line: number; column: number } | null;

/** The error for an invalid file: its message starts with the path, then one issue per line. */
export function invalidConfigError(
  file: string | null,
  issues: readonly PathIssue[],
  locate?: LocatePath,
): ConfigError {
  const configIssues = issues.map((issue) => ({ ...toConfigIssue(issue), ...locate?.(issue.path) }));
  // Lines name the path as written (VS Code's file says `servers`, ours `mcpServers`).
  const lines = issues.map((issue) => `  ${formatPathIssue(issue)}`);
  return new ConfigError(`${file ?? '(config)'}: invalid config\n${lines.join('\n')}`, file, configIssues);
}
