/**
 * Resolving templates against data (see `parse-template.ts`). A reference reads own
 * properties of plain objects and in-range indexes of arrays, nothing else: no prototype,
 * getter or function is ever reached, whatever the names in it.
 * @module
 */
import { TemplateError } from '../errors.js';
import { hasReference, parseTemplate, type Reference } from './parse-template.js';

/** How a path prefix reads in a message: `steps.list.result.content[5]`. */
export function formatPath(path: readonly (string | number)[]): string {
  return path
    .map((k, i) =>
      typeof k === 'number'
        ? `[${k}]`
        : /^[A-Za-z_][A-Za-z0-9_-]*$/.test(k)
          ? i
            ? `.${k}`
            : k
          : `[${JSON.stringify(k)}]`,
    )
    .join('');
}

/** The value `ref` names in `scope`; throws TemplateError naming the first part that is not there. */
export function lookupReference(scope: unknown, ref: Reference): unknown {
  let current = scope;
  ref.path.forEach((key, i) => {
    const here = current as Record<string | number, unknown>;
    const present =
      typeof key === 'number'
        ? Array.isArray(current) && key < current.length
        : current !== null && typeof current === 'object' && !Array.isArray(current) && Object.hasOwn(here, key);
    if (!present || here[key] === undefined)
      throw new TemplateError(`{{${ref.source}}}: ${formatPath(ref.path.slice(0, i + 1))} is not there`);
    current = here[key];
  });
  return current;
}

/** How a value reads inside a longer string: strings as they are, anything else as JSON. */
function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Resolve one string: exactly one reference and nothing else is replaced by the value
 * itself (any JSON type); otherwise each reference is replaced by its text.
 */
export function renderString(text: string, scope: unknown): unknown {
  if (!hasReference(text)) return text;
  const parts = parseTemplate(text);
  const [only] = parts;
  if (parts.length === 1 && only !== undefined && typeof only !== 'string') return lookupReference(scope, only);
  return parts.map((p) => (typeof p === 'string' ? p : asText(lookupReference(scope, p)))).join('');
}

/** Resolve every string inside a JSON value (keys are never templates). */
export function renderValue(value: unknown, scope: unknown): unknown {
  if (typeof value === 'string') return renderString(value, scope);
  if (Array.isArray(value)) return value.map((v) => renderValue(v, scope));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderValue(v, scope)]));
  return value;
}
