/**
 * The API's 400 as errors next to their fields (issue 19): `issues[].field` (`template`,
 * `arguments.1.name`, `steps.2.arguments.text`) keyed by the field, the first message of
 * each, so a form shows each one line beside the control it names.
 * @module
 */
import { ApiError } from './api.js';

/** Messages by field path; `''` holds an error that names no field (or is not the API's 400). */
export type FieldErrors = Readonly<Record<string, string>>;

/** The errors of a failed save, by field. */
export function fieldErrors(error: unknown): FieldErrors {
  const out: Record<string, string> = {};
  const issues = error instanceof ApiError ? error.issues : [];
  for (const { field, message } of issues) out[field] ??= message;
  if (issues.length === 0) out[''] = (error as Error).message;
  return out;
}

/** The first message of `errors` whose field is `prefix` or lies under it (`steps.1` takes `steps.1.arguments.x`). */
export function errorUnder(errors: FieldErrors, prefix: string): string | null {
  for (const [field, message] of Object.entries(errors))
    if (field === prefix || field.startsWith(`${prefix}.`))
      return field === prefix ? message : `${field.slice(prefix.length + 1)}: ${message}`;
  return null;
}
