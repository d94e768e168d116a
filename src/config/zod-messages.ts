/**
 * Plain-language messages for zod issues in config files (`expected a boolean, got string
 * "yes"` rather than zod's generic `Invalid input`). Messages set on a schema still win.
 * @module
 */
import type { z } from 'zod';
import type { JsonPath, PathIssue } from './config-issues.js';

const EXPECTED: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean (true or false)',
  array: 'an array',
  object: 'an object',
  record: 'an object',
};

/** A short description of a JSON value for "got …" in messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return typeof value === 'object' ? 'an object' : typeof value;
}

function bound(kind: 'min' | 'max', origin: string, limit: number | bigint, inclusive: boolean | undefined): string {
  const n = Number(limit);
  if (origin === 'string' && kind === 'min' && n === 1) return 'expected a non-empty string';
  if (origin === 'string') return `must be ${kind === 'min' ? 'at least' : 'at most'} ${n} characters`;
  if (origin === 'array' || origin === 'set') return `must have ${kind === 'min' ? 'at least' : 'at most'} ${n} items`;
  const op = kind === 'min' ? (inclusive ? '>=' : '>') : inclusive ? '<=' : '<';
  return `must be ${op} ${n}`;
}

/** Error map for `schema.safeParse(value, { error: configErrorMap })`. */
export function configErrorMap(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': {
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      if (issue.input === undefined) return `is required (expected ${expected})`;
      return `expected ${expected}, got ${describeValue(issue.input)}`;
    }
    case 'too_small':
      return bound('min', issue.origin, issue.minimum, issue.inclusive);
    case 'too_big':
      return bound('max', issue.origin, issue.maximum, issue.inclusive);
    case 'invalid_value':
      return `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, got ${describeValue(issue.input)}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    case 'invalid_key':
      return `invalid name: ${issue.issues.map((i) => i.message).join('; ')}`;
    case 'invalid_format':
      return `expected a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return undefined;
  }
}

/** Zod issues as path issues, skipping paths already reported (e.g. by env interpolation). */
export function fromZodIssues(issues: readonly z.core.$ZodIssue[], skip: readonly PathIssue[] = []): PathIssue[] {
  const reported = new Set(skip.map((issue) => pathKey(issue.path)));
  return issues
    .map((issue) => ({ path: issue.path.map(jsonKey), message: issue.message }))
    .filter((issue) => !reported.has(pathKey(issue.path)));
}

function jsonKey(key: PropertyKey): string | number {
  return typeof key === 'number' ? key : String(key);
}

function pathKey(path: JsonPath): string {
  return JSON.stringify(path);
}
