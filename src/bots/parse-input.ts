/**
 * Validation at the bots' edge: a zod failure becomes one {@link BotInputError} whose
 * message names every field on one line.
 * @module
 */
import type { z } from 'zod';
import { BotInputError } from '../errors.js';

/** Parse `value` with `schema`, or throw a BotInputError (`invalid <what>: field: message; …`). */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    field: issue.path.map(String).join('.'),
    message: issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message,
  }));
  const summary = issues.map((i) => (i.field ? `${i.field}: ${i.message}` : i.message)).join('; ');
  throw new BotInputError(`invalid ${what}: ${summary}`, issues);
}
