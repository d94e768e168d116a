/**
 * SPEC C1 inside the sections (`gateway`, `limits`, a server's `backoff` …), as
 * `check-keys.ts` does for the top level and a server entry's own keys: a value is walked
 * along its zod schema, and in every object whose keys the schema knows, a near miss is an
 * error naming the key meant (`gateway.maxSesions: unknown key; did you mean
 * "maxSessions"?`), and any other unknown key is reported as a warning and left out of what
 * is validated (it stays in the file) — so a section neither refuses a key it does not know
 * (one a newer boternity writes, say) nor drops a typo silently.
 * @module
 */
import type { z } from 'zod';
import { nearMiss } from './check-keys.js';
import type { JsonPath, PathIssue } from './config-issues.js';
import { isJsonObject } from './json-object.js';

/** What the walk found, and the value without the unknown keys (to validate). */
export type NestedKeyCheck = { readonly value: unknown; readonly issues: PathIssue[]; readonly warnings: PathIssue[] };

/** The parts of a zod schema's definition the walk reads (zod 4's `_zod.def`). */
type Def = {
  type: string;
  innerType?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  valueType?: z.ZodType;
};

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** `schema` without the wrappers that do not change what an object's keys are. */
function unwrapped(schema: z.ZodType): Def {
  let def = defOf(schema);
  for (let depth = 0; depth < 16; depth++) {
    const next = def.innerType ?? (def.type === 'pipe' ? def.out : undefined);
    if (next === undefined) return def;
    def = defOf(next);
  }
  return def;
}

/** Check the keys of `value` (at `at`) and below against `schema`. */
export function checkNestedKeys(value: unknown, schema: z.ZodType, at: JsonPath): NestedKeyCheck {
  const issues: PathIssue[] = [];
  const warnings: PathIssue[] = [];
  const walk = (item: unknown, itemSchema: z.ZodType, path: JsonPath): unknown => {
    if (!isJsonObject(item)) return item;
    const def = unwrapped(itemSchema);
    if (def.type === 'record' && def.valueType) {
      const valueType = def.valueType;
      return Object.fromEntries(Object.entries(item).map(([key, v]) => [key, walk(v, valueType, [...path, key])]));
    }
    if (def.type !== 'object' || !def.shape) return item;
    const shape = def.shape;
    const known = Object.keys(shape);
    const kept: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(item)) {
      // Own keys only: `constructor` or `__proto__` in a file is an unknown key, not a schema.
      const child = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (child !== undefined) {
        kept[key] = walk(v, child, [...path, key]);
        continue;
      }
      if (key.startsWith('$')) continue;
      const meant = nearMiss(key, known);
      if (meant !== null) issues.push({ path: [...path, key], message: `unknown key; did you mean "${meant}"?` });
      else warnings.push({ path: [...path, key], message: 'unknown key, kept but not used' });
    }
    return kept;
  };
  return { value: walk(value, schema, at), issues, warnings };
}
