/**
 * A bot's tool by the name its workflows call it (SPEC G2, issue 19): `{server}__{tool}`
 * as the gateway's `toPublicName` makes it, every character outside `[A-Za-z0-9_-]` a `_`,
 * and a name over 64 characters cut to 55 plus `_` and 8 hex digits of the SHA-256 of the
 * original, computed with the browser's SubtleCrypto (null where the page has none: a
 * plain-HTTP address other than localhost). Two tools whose names collide get `_2`… from
 * the gateway, which this does not settle.
 * @module
 */

const MAX_NAME = 64;
const HASH_CHARS = 8;

/** The public name of `tool` of `server`, or null when it needs a hash the page cannot compute. */
export async function publicToolName(server: string, tool: string): Promise<string | null> {
  const original = `${server}__${tool}`;
  const safe = original.replace(/[^A-Za-z0-9_-]/gu, '_');
  if (safe.length <= MAX_NAME) return safe;
  if (!globalThis.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(original));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${safe.slice(0, MAX_NAME - HASH_CHARS - 1)}_${hex.slice(0, HASH_CHARS)}`;
}
