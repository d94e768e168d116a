/**
 * The template syntax of skills and workflows (docs/bots.md, ADR 008). Text with
 * `{{ reference }}` in it; a reference is a name followed by `.key`, `[index]` or
 * `["key"]` steps, e.g. `{{input.path}}` or `{{steps.list.result.content[0].text}}`.
 * `\{{` is a literal `{{`. There are no operators, calls or code: a reference can only
 * read data, so parsing is a small scanner and resolving is a walk over own properties.
 * @module
 */
import { TemplateError } from '../errors.js';

/** A parsed `{{ … }}`: `path[0]` is the root name. */
export type Reference = { readonly source: string; readonly path: readonly (string | number)[] };

/** Literal text and references, in order. */
export type TemplatePart = string | Reference;

/** Longest reference, in characters: templates are small by design. */
export const MAX_REFERENCE_CHARS = 256;
/** Most steps in one reference's path (`a.b[0]` has three). */
export const MAX_PATH_DEPTH = 32;

const IDENT = /[A-Za-z_][A-Za-z0-9_-]*/y;
const INDEX = /(0|[1-9][0-9]{0,5})\]/y;

/** True when `text` holds at least one reference (a cheap check before parsing). */
export function hasReference(text: string): boolean {
  return text.includes('{{');
}

/** Parse `text` into literal parts and references; throws TemplateError naming the position. */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = '';
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('{{', at);
    if (open < 0) {
      literal += text.slice(at);
      break;
    }
    if (open > 0 && text[open - 1] === '\\') {
      literal += `${text.slice(at, open - 1)}{{`;
      at = open + 2;
      continue;
    }
    literal += text.slice(at, open);
    const close = text.indexOf('}}', open + 2);
    if (close < 0) throw new TemplateError(`"{{" at character ${open + 1} is not closed by "}}"`);
    if (literal) parts.push(literal);
    literal = '';
    parts.push(parseReference(text.slice(open + 2, close).trim()));
    at = close + 2;
  }
  if (literal) parts.push(literal);
  return parts;
}

/** Parse the inside of one `{{ … }}`. */
export function parseReference(source: string): Reference {
  const fail = (why: string): never => {
    throw new TemplateError(`{{${source}}}: ${why}`);
  };
  if (source.length === 0) fail('empty reference');
  if (source.length > MAX_REFERENCE_CHARS) fail(`longer than ${MAX_REFERENCE_CHARS} characters`);
  const path: (string | number)[] = [];
  let pos = 0;
  const ident = (): string => {
    IDENT.lastIndex = pos;
    const m = IDENT.exec(source);
    if (!m) return fail(`expected a name at character ${pos + 1}`);
    pos = IDENT.lastIndex;
    return m[0];
  };
  path.push(ident());
  while (pos < source.length) {
    const c = source[pos];
    if (c === '.') {
      pos += 1;
      path.push(ident());
    } else if (c === '[') {
      pos += 1;
      const quote = source[pos];
      if (quote === '"' || quote === "'") path.push(quotedKey(quote));
      else {
        INDEX.lastIndex = pos;
        const m = INDEX.exec(source);
        if (!m) fail(`expected an index or a quoted key after "[" at character ${pos}`);
        pos = INDEX.lastIndex;
        path.push(Number(m?.[1]));
      }
    } else {
      fail(`unexpected ${JSON.stringify(c)} at character ${pos + 1}: use .name, [0] or ["key"]`);
    }
    if (path.length > MAX_PATH_DEPTH) fail(`deeper than ${MAX_PATH_DEPTH} steps`);
  }
  return { source, path };

  function quotedKey(quote: string): string {
    let key = '';
    for (pos += 1; pos < source.length; pos += 1) {
      const c = source[pos];
      if (c === '\\' && pos + 1 < source.length) {
        pos += 1;
        key += source[pos];
      } else if (c === quote) {
        if (source[pos + 1] !== ']') fail(`expected "]" after the quoted key at character ${pos + 2}`);
        pos += 2;
        return key;
      } else key += c;
    }
    return fail('a quoted key is not closed');
  }
}

/** Every reference in a JSON value's strings, with the path of the string that holds it. */
export function referencesIn(
  value: unknown,
  at: (string | number)[] = [],
): { at: (string | number)[]; ref: Reference }[] {
  if (typeof value === 'string')
    return hasReference(value)
      ? parseTemplate(value)
          .filter((p): p is Reference => typeof p !== 'string')
          .map((ref) => ({ at, ref }))
      : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => referencesIn(v, [...at, i]));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => referencesIn(v, [...at, k]));
  return [];
}
