/**
 * `${env:VAR}` interpolation (SPEC C1), applied to every string of the raw JSON before
 * validation. `$${env:VAR}` stands for the literal text `${env:VAR}`.
 * @module
 */
import type { JsonPath, PathIssue } from './config-issues.js';
import { isJsonObject } from './json-object.js';

const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A value with its references replaced, and one issue per missing or malformed reference. */
export type Interpolated = { readonly value: unknown; readonly issues: PathIssue[] };

/** Replace `${env:VAR}` in every string of `value` (recursively); `at` prefixes issue paths. */
export function interpolateEnv(value: unknown, env: NodeJS.ProcessEnv = process.env, at: JsonPath = []): Interpolated {
  const issues: PathIssue[] = [];
  const walk = (node: unknown, path: JsonPath): unknown => {
    if (typeof node === 'string') return interpolateString(node, env, path, issues);
    if (Array.isArray(node)) return node.map((item, index) => walk(item, [...path, index]));
    if (isJsonObject(node)) {
      return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, walk(item, [...path, key])]));
    }
    return node;
  };
  return { value: walk(value, at), issues };
}

function interpolateString(text: string, env: NodeJS.ProcessEnv, path: JsonPath, issues: PathIssue[]): string {
  if (!text.includes('${env:')) return text;
  // A global regex carries lastIndex, so it is made per call rather than shared.
  return text.replace(/(\$?)\$\{env:([^}]*)\}/g, (match, escaped: string, name: string) => {
    if (escaped === '$') return match.slice(1);
    if (!VAR_NAME.test(name)) {
      issues.push({ path, message: `${JSON.stringify(match)} is not a valid reference (expected \${env:NAME})` });
      return match;
    }
    const found = env[name];
    if (found === undefined) {
      issues.push({ path, message: `environment variable ${name} is not set` });
      return match;
    }
    return found;
  });
}
