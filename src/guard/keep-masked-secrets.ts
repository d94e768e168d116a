/**
 * A server patch written back from what `GET /api/servers/{name}` showed (SPEC C6): there
 * every `env` and `headers` value reads `********`. Such a value means "keep what the entry
 * has": it takes the entry's value for that name from the file, and a masked value the file
 * does not have (it came from a preset or an `envFile`) is left out, so the mask is never
 * written over a secret nor stored as one. Pure.
 * @module
 */
import { MASKED } from './mask-secrets.js';

/** The fields whose values `GET` masks one by one. */
const MASKED_MAPS = ['env', 'headers'] as const;

/** `patch` with each masked `env`/`headers` value replaced by the one `entry` (the file's) has, or dropped. */
export function keepMaskedSecrets(
  patch: Record<string, unknown>,
  entry: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const out = { ...patch };
  for (const field of MASKED_MAPS) {
    const given = out[field];
    if (typeof given !== 'object' || given === null || Array.isArray(given)) continue;
    const current = entry?.[field];
    const kept = typeof current === 'object' && current !== null ? (current as Record<string, unknown>) : {};
    out[field] = Object.fromEntries(
      Object.entries(given as Record<string, unknown>).flatMap(([name, value]) => {
        if (value !== MASKED) return [[name, value]];
        return Object.hasOwn(kept, name) ? [[name, kept[name]]] : [];
      }),
    );
  }
  return out;
}
