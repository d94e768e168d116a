/**
 * A tool's arguments typed as raw JSON (the test form's other mode): whether its schema can be
 * drawn as fields at all, the JSON a filled form stands for (switching to JSON keeps what was
 * typed), the fields a JSON object fills (switching back loses nothing, or does not switch),
 * and the arguments a typed text gives, or the one line saying what is wrong with it. Pure.
 * @module
 */
import { asNode, propertiesOf } from './describe-schema.js';
import type { Field, FormValues } from './tool-form.js';

const COMBINERS = ['$ref', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'patternProperties'] as const;

/**
 * Whether the fields drawn from `inputSchema` say everything it allows: false for a bare
 * `{"type":"object"}` (any arguments), a schema built with `$ref`/`allOf`/`anyOf`/`oneOf`, or
 * one that allows properties it does not name. `{"type":"object","properties":{}}` is drawable:
 * a tool that takes nothing.
 */
export function canDrawFields(inputSchema: unknown): boolean {
  const schema = asNode(inputSchema) as Record<string, unknown>;
  if (COMBINERS.some((key) => key in schema)) return false;
  if (schema.properties === undefined) return false;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return false;
  return propertiesOf(schema).every(([, node]) => !('$ref' in (node as Record<string, unknown>)));
}

/** What a raw text gives: the arguments, or one line saying what is wrong. */
export type RawResult = { ok: true; arguments: Record<string, unknown> } | { ok: false; error: string };

/** The arguments in `text`: a JSON object (empty text: `{}`). */
export function parseRawArguments(text: string): RawResult {
  if (text.trim() === '') return { ok: true, arguments: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (failure) {
    return { ok: false, error: `not JSON: ${(failure as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return {
      ok: false,
      error: `the arguments must be a JSON object ({…}), not ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`,
    };
  return { ok: true, arguments: value as Record<string, unknown> };
}

/**
 * The JSON object a form's values stand for, leniently: a field that does not parse is kept as
 * the text typed, an empty optional field is left out, and an empty required text field is
 * `""` (so that it can be sent as such, on purpose).
 */
export function draftArguments(fields: readonly Field[], values: FormValues): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name] ?? field.initial;
    if (typeof value === 'boolean') args[field.name] = value;
    else if (value.trim() === '') {
      if (field.required && field.kind === 'text') args[field.name] = value;
    } else if (field.kind === 'text') args[field.name] = value;
    else if (field.kind === 'lines') args[field.name] = value.split('\n').filter((line) => line.trim() !== '');
    else {
      try {
        args[field.name] = JSON.parse(value);
      } catch {
        args[field.name] = value;
      }
    }
  }
  return args;
}

/** The form's values for `args`, or why they cannot be shown as fields (a key no field has). */
export function valuesFromArguments(
  fields: readonly Field[],
  args: Record<string, unknown>,
): { ok: true; values: FormValues } | { ok: false; error: string } {
  const names = new Set(fields.map((field) => field.name));
  const extra = Object.keys(args).filter((key) => !names.has(key));
  if (extra.length > 0)
    return { ok: false, error: `kept as JSON: ${extra.map((k) => `"${k}"`).join(', ')} has no field in the form` };
  const values: FormValues = {};
  for (const field of fields) {
    const value = args[field.name];
    if (typeof field.initial === 'boolean') values[field.name] = value === true;
    else if (value === undefined) values[field.name] = '';
    else if (field.kind === 'text') {
      if (typeof value !== 'string') return { ok: false, error: `kept as JSON: "${field.name}" is not a string` };
      values[field.name] = value;
    } else if (field.kind === 'lines' && Array.isArray(value)) values[field.name] = value.map(String).join('\n');
    else if ((field.kind === 'number' || field.kind === 'integer') && typeof value === 'number')
      values[field.name] = String(value);
    else values[field.name] = JSON.stringify(value, null, 2);
  }
  return { ok: true, values };
}
