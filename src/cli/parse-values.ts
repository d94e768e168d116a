import { UsageError } from '../errors.js';
/**
 * The values typed after the flags of `bnity mcp add` and `mcp test-tool`: `K=V`, `K:V`,
 * counts and JSON arguments. Each bad one is a usage error (exit 2) naming the flag.
 * @module
 */

/** A positive whole number. */
export function parseCount(value: string, flag: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`${flag} must be a positive number, got "${value}"`);
  return Number(value);
}

/** `K=V` (or `K:V` with `separator` ':') pairs into an object; the key must not be empty. */
export function parsePairs(
  values: readonly string[] | undefined,
  separator: '=' | ':',
  flag: string,
): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const value of values ?? []) {
    const at = value.indexOf(separator);
    const key = at > 0 ? value.slice(0, at).trim() : '';
    if (key === '') throw new UsageError(`${flag} takes KEY${separator}VALUE, got "${value}"`);
    // A header's value is trimmed as HTTP does; an env or argument value is kept as typed.
    pairs[key] = separator === ':' ? value.slice(at + 1).trim() : value.slice(at + 1);
  }
  return pairs;
}

/**
 * Tool arguments: `--json-args` (one JSON object), then each `--arg k=v` on top, whose value is
 * read as JSON when it parses (`5`, `true`, `"x"`, `[1]`) and as text otherwise.
 */
export function parseToolArguments(
  args: readonly string[] | undefined,
  json: string | undefined,
): Record<string, unknown> {
  let base: unknown = {};
  if (json !== undefined) {
    try {
      base = JSON.parse(json);
    } catch (error) {
      throw new UsageError(
        `--json-args is not JSON (${(error as Error).message}): give one object, e.g. '{"path": "/tmp"}'`,
      );
    }
    if (base === null || typeof base !== 'object' || Array.isArray(base))
      throw new UsageError(`--json-args must be a JSON object, e.g. '{"path": "/tmp"}'`);
  }
  const result = { ...(base as Record<string, unknown>) };
  for (const [key, text] of Object.entries(parsePairs(args, '=', '--arg'))) result[key] = parseJsonOrText(text);
  return result;
}

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
